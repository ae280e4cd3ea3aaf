import type { RewriteInstruction } from '../types';
import { PLAIN_LEXICON } from './plain-lexicon';

/** Clinical abbreviations and their expansions; used in both directions. */
const ABBREVIATIONS: Array<[abbr: string, full: string]> = [
  ['HTN', 'hypertension'], ['DM2', 'type 2 diabetes mellitus'], ['T2DM', 'type 2 diabetes mellitus'], ['DM', 'diabetes mellitus'],
  ['CHF', 'congestive heart failure'], ['CAD', 'coronary artery disease'], ['COPD', 'chronic obstructive pulmonary disease'],
  ['GERD', 'gastroesophageal reflux disease'], ['CKD', 'chronic kidney disease'], ['UTI', 'urinary tract infection'],
  ['MI', 'myocardial infarction'], ['AFib', 'atrial fibrillation'], ['DVT', 'deep vein thrombosis'], ['PE', 'pulmonary embolism'],
  ['OSA', 'obstructive sleep apnea'], ['SOB', 'shortness of breath'], ['DOE', 'dyspnea on exertion'], ['CP', 'chest pain'],
  ['N/V', 'nausea and vomiting'], ['HA', 'headache'], ['ROM', 'range of motion'], ['BP', 'blood pressure'], ['HR', 'heart rate'],
  ['RRR', 'regular rate and rhythm'], ['CTAB', 'clear to auscultation bilaterally'], ['NKDA', 'no known drug allergies'],
  ['PMH', 'past medical history'], ['h/o', 'history of'], ['c/o', 'complains of'], ['f/u', 'follow-up'], ['pt', 'patient'],
  ['PT', 'physical therapy'], ['Rx', 'prescription'], ['Dx', 'diagnosis'], ['Tx', 'treatment'], ['Hx', 'history'],
  ['BID', 'twice a day'], ['TID', 'three times a day'], ['QID', 'four times a day'], ['QD', 'once a day'], ['QHS', 'at bedtime'],
  ['PRN', 'as needed'], ['PO', 'by mouth'], ['NSAIDs', 'anti-inflammatory medicines'], ['NSAID', 'anti-inflammatory medicine'],
  ['w/', 'with'], ['w/o', 'without'], ['yo', 'year-old'], ['LE', 'lower extremity'], ['UE', 'upper extremity'],
  ['bilat', 'bilateral'], ['EKG', 'electrocardiogram'], ['ECG', 'electrocardiogram'], ['A1c', 'hemoglobin A1c'],
];

const WORDY: Array<[RegExp, string]> = [
  [/\b(it (?:was|is) noted that|it should be noted that|of note,?|at this (?:point in )?time,?|at the present time,?)\s*/gi, ''],
  [/\bthe patient (reports|states|notes|says) that\s+(she|he|they)\s+/gi, ''],
  [/\b(?:the patient|she|he) (?:reports|states|notes|says) that\b\s*/gi, ''],
  [/\bdue to the fact that\b/gi, 'because'], [/\bin order to\b/gi, 'to'], [/\ba (?:little|small) bit of\b/gi, 'some'],
  [/\bin the setting of\b/gi, 'with'], [/\bis able to\b/gi, 'can'], [/\bwith regard(?:s)? to\b/gi, 'regarding'],
  [/\b(really|very|quite|just|basically|actually|kind of|sort of|pretty much|a little bit)\s+/gi, ''],
  [/\bfor a period of\b/gi, 'for'], [/\bon a daily basis\b/gi, 'daily'], [/\bat this point\b/gi, 'now'],
  [/\bwe (?:will|are going to) go ahead and\b/gi, 'we will'], [/\b(?:I|we) (?:would like|want) to go ahead and\b/gi, 'will'],
  [/\bgo ahead and\s+/gi, ''],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function expandAbbreviations(text: string): string {
  let t = text;
  for (const [abbr, full] of ABBREVIATIONS) {
    const re = new RegExp(`(^|[^A-Za-z0-9/])${escape(abbr)}(?![A-Za-z0-9/])`, abbr.length <= 3 && abbr === abbr.toUpperCase() ? 'g' : 'gi');
    t = t.replace(re, (_m, pre: string) => pre + full);
  }
  return t;
}

function abbreviate(text: string): string {
  let t = text;
  // Only unambiguous, widely used abbreviations: a concise note must still read correctly to any clinician.
  for (const [abbr, full] of ABBREVIATIONS.filter(([a]) => ['HTN', 'CHF', 'CAD', 'COPD', 'GERD', 'CKD', 'UTI', 'DVT', 'OSA', 'BP', 'HR', 'ROM', 'PT', 'BID', 'TID', 'QID', 'PRN', 'NKDA', 'EKG'].includes(a)))
    t = t.replace(new RegExp(`\\b${escape(full)}\\b`, 'gi'), abbr);
  t = t.replace(/\bmilligrams?\b/gi, 'mg').replace(/\bonce a day\b/gi, 'daily').replace(/\bhistory of\b/gi, 'h/o').replace(/\bfollow-up\b/gi, 'f/u');
  return t;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z•\-\d])/).map((s) => s.trim()).filter(Boolean);
}
const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').replace(/\s+/g, ' ').trim();

function tidy(t: string): string {
  return t
    .replace(/[ \t]+/g, ' ')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/(^|[.!?]\s+|\n\s*(?:•\s*)?)([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase())
    .trim();
}

/** Scribe wording a clinician reading the note does not need spelled out; nothing here carries a number, drug or negation. */
const SCRIBE_WORDY: Array<[RegExp, string]> = [
  [/\bwho presents to the clinic today for the evaluation of\b/gi, 'here for'], [/\bpresents to the clinic today for the evaluation of\b/gi, 'here for'],
  [/\bwith a past medical history significant for\b/gi, 'with PMH of'], [/\bwith past medical history significant for\b/gi, 'with PMH of'],
  [/^After reviewing the patient's examination and radiographic findings today, I have had a discussion with the patient in regards to (?:his|her|their) current symptoms\.\s*/gim, ''],
  [/^(?:•\s*)?(?:Patient Education and Counseling: )?I discussed the diagnosis and treatment options for [^.]+ with the patient\.\s*$/gim, ''],
  [/\bThe patient understands and agrees with the recommended medical treatment plan\./g, 'Agrees with plan.'],
  [/\bThe patient will follow up with me in\b/g, 'Follow up in'], [/\bThe patient was advised to\b/g, 'Advised to'],
  [/\bMedical Reasoning:/g, 'Reasoning:'], [/\bAdditional Testing:/g, 'Testing:'], [/\bMedical Treatment:/g, 'Treatment:'],
  [/\bSpecialist Referrals:/g, 'Referrals:'], [/\bPatient Education and Counseling:/g, 'Counseling:'], [/\bPatient Agreements:/g, 'Agreement:'],
  // The hedge stays, in one word: "I think he is retaining fluid" → "likely he is retaining fluid".
  [/\b(?:I|we) (?:think|believe) (?:that )?(?:(?:he|she|it|this|they) (?:has|is|have|are) )?(?:probably |likely )?/gi, 'likely '],
  [/\bWe will\b/g, 'Will'], [/\b(?:I|we) want (him|her|them|the patient) to\b/gi, '$1 to'], [/\b(?:is|are) going to\b/gi, 'will'],
  [/\b(?:at this time|at this point|right now|for now|certainly|lastly|additionally|also|some|any other|go ahead and|in terms of)\b,?\s*/gi, ''],
  [/\bshortness of breath\b/gi, 'SOB'], [/\btwice (?:daily|a day)\b/gi, 'BID'], [/\bthree times (?:daily|a day)\b/gi, 'TID'], [/\bas needed\b/gi, 'PRN'],
  [/\bevery (\d+) hours\b/gi, 'q$1h'], [/\bfollow up\b/gi, 'f/u'], [/\btype 2 diabetes(?: mellitus)?\b/gi, 'T2DM'], [/\bhypertension\b/gi, 'HTN'],
  [/\bhigh blood pressure\b/gi, 'HTN'],
  [/^(?:(?:Mr|Ms|Mrs|Miss)\.\s+)?[A-Z][a-z]+ is an? (?=\d+-year-old)/gm, ''], [/\b(?:I would recommend|my recommendation would be)(?: that)?(?: to)?(?: we)?\b/gi, 'recommend'],
  [/\band we will\b/g, 'and will'], [/\b(?:it seems|again|just|much|very|really)\b,?\s*/gi, ''], [/\bPt is an? (?=\d)/g, ''],
  [/\bfor the next\b/gi, 'for'], [/\bcontinue with\b/gi, 'continue'],
];

function concise(text: string): string {
  for (const [re, rep] of SCRIBE_WORDY) text = text.replace(re, rep);
  const out: string[] = [];
  const seen: string[] = [];
  for (const line of text.split('\n')) {
    const kept: string[] = [];
    for (let s of sentences(line)) {
      for (const [re, rep] of WORDY) s = s.replace(re, rep);
      s = abbreviate(s).replace(/\bthe patient\b/gi, 'pt');
      const n = norm(s);
      // A sentence whose words are all contained in an earlier one adds nothing.
      if (!n || seen.some((p) => p === n || (p.includes(n) && n.length > 12))) continue;
      seen.push(n);
      kept.push(s);
    }
    out.push(kept.join(' '));
  }
  return tidy(out.join('\n').replace(/\n{3,}/g, '\n\n'));
}

function verbose(text: string): string {
  const lines = text.split('\n').map((line) => {
    const m = /^(\s*(?:[•\-*]\s*)?)(?:([A-Z][A-Za-z ,/]+):\s*)?(.*)$/.exec(line)!;
    const [, bullet, label, body] = m;
    const expanded = sentences(expandAbbreviations(body)).map((s) => {
      // Telegraphic findings become full sentences: "Denies chest pain." → "The patient denies chest pain."
      if (/^(Denies|Reports|Endorses|Complains|Notes|States)\b/.test(s)) return `The patient ${s[0].toLowerCase()}${s.slice(1)}`;
      if (/^(No|Positive|Negative|Normal|Clear|Regular|Mild|Moderate|Severe|Tender|Soft)\b/.test(s) && s.split(' ').length <= 8)
        return `On examination, there ${/^No\b/.test(s) ? 'was' : 'was'} ${s[0].toLowerCase()}${s.slice(1).replace(/\.$/, '')} noted.`.replace('there was no', 'there was no').replace(/there was (clear|regular|normal|soft|tender)/i, 'the finding was $1');
      return s;
    });
    return `${bullet}${label ? `${label}: ` : ''}${expanded.join(' ')}`;
  });
  return tidy(lines.join('\n'));
}

// One pass, longest phrase first, so a replacement is never replaced again ("urinary tract infection" → "bladder infection").
const PLAIN_TERMS = new Map(PLAIN_LEXICON.map(([from, to]) => [from.toLowerCase(), to]));
const PLAIN_RE = new RegExp(`\\b(?:${[...PLAIN_TERMS.keys()].sort((a, b) => b.length - a.length).map(escape).join('|')})\\b`, 'gi');
const plainTerms = (t: string) => t.replace(PLAIN_RE, (m) => { const to = PLAIN_TERMS.get(m.toLowerCase()) ?? m; return /^[A-Z]/.test(m) && to ? to[0].toUpperCase() + to.slice(1) : to; });

/** The note's part labels in everyday words. */
const PLAIN_LABELS: Array<[RegExp, string]> = [
  [/\bMedical Reasoning:/g, 'Why:'], [/\bAdditional Testing:/g, 'Tests:'], [/\bMedical Treatment:/g, 'Treatment:'], [/\bSpecialist Referrals:/g, 'Other doctors:'],
  [/\bPatient Education and Counseling:/g, 'What we talked about:'], [/\bPatient Agreements:/g, 'Agreed:'], [/\bInstructions:/g, 'Next:'],
];

const NEW_CLAUSE = String.raw`(?:I|we|he|she|they|it|the patient|this|that|there|you)\s+(?!to\b)`;
/** A long sentence is cut where a new clause starts after "and", "but", "so", "which", "because" or a semicolon; each part reads alone. */
function splitLong(sentence: string, max = 8): string[] {
  if (sentence.split(/\s+/).length <= max) return [sentence];
  const parts = sentence
    .replace(/,?\s+which\s+(?=is|was|are|will|can|should|has|may|might)\b/gi, '; this ')
    .replace(new RegExp(String.raw`,?\s+because\s+(?=${NEW_CLAUSE})`, 'gi'), '; this is because ')
    .split(new RegExp(String.raw`;\s*|,?\s+(?:and|but|so|and then|then|or|while|as well as)\s+(?=${NEW_CLAUSE})|,\s+(?=${NEW_CLAUSE}(?:will|is|are|was|has|have|can|should|would|may|might|do|does|did|want|think|need|take|get)\b)`, 'i'))
    .map((x) => x.trim().replace(/[,;]+$/, ''))
    .filter((x) => x.split(/\s+/).length >= 3);
  if (parts.length < 2) return [sentence];
  return parts.map((x) => (/[.!?]$/.test(x) ? x : `${x}.`)).map((x) => x[0].toUpperCase() + x.slice(1));
}

function patientFriendly(text: string): string {
  let t = expandAbbreviations(text);
  for (const [re, rep] of PLAIN_LABELS) t = t.replace(re, rep);
  t = plainTerms(t);
  for (const [re, rep] of WORDY.slice(0, 3)) t = t.replace(re, rep);
  // "an sudden" → "a sudden", "a inner" → "an inner" after a word was swapped.
  t = t.replace(/\b(an?) (?=(\w))/gi, (m, art: string, c: string) => { const an = /[aeiou]/i.test(c); return (/^A/.test(art) ? (an ? 'An' : 'A') : an ? 'an' : 'a') + ' '; });
  const lines = t.split('\n').map((line) => {
    const m = /^(\s*(?:[•\-*]\s*)?(?:[A-Z][A-Za-z ]{1,30}:\s*)?)(.*)$/.exec(line)!;
    return m[1] + sentences(m[2]).flatMap((s) => splitLong(s)).join(' ');
  });
  return tidy(lines.join('\n').replace(/ {2,}/g, ' '));
}

export function rewriteText(text: string, instruction: RewriteInstruction): string {
  if (!text.trim()) return text;
  switch (instruction) {
    case 'CONCISE':
      return concise(text);
    case 'VERBOSE':
      return verbose(text);
    case 'PATIENT_FRIENDLY':
      return patientFriendly(text);
  }
}
