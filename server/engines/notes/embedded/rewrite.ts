import type { RewriteInstruction } from '../types';

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

/** Medical words a patient may not know, with plain wording at about a sixth-grade level. */
const PLAIN: Array<[RegExp, string]> = [
  [/\bhypertension\b/gi, 'high blood pressure'], [/\bhyperlipidemia\b/gi, 'high cholesterol'], [/\bdyslipidemia\b/gi, 'abnormal cholesterol'],
  [/\bhypercholesterolemia\b/gi, 'high cholesterol'], [/\bmyocardial infarction\b/gi, 'heart attack'], [/\bcerebrovascular accident\b/gi, 'stroke'],
  [/\bdyspnea on exertion\b/gi, 'shortness of breath with activity'], [/\bdyspnea\b/gi, 'shortness of breath'], [/\bedema\b/gi, 'swelling'],
  [/\berythema\b/gi, 'redness'], [/\bpruritus\b/gi, 'itching'], [/\bsyncope\b/gi, 'fainting'], [/\bemesis\b/gi, 'vomiting'],
  [/\bbilateral(ly)?\b/gi, 'on both sides'], [/\bmedial\b/gi, 'inner'], [/\blateral\b/gi, 'outer'], [/\banterior\b/gi, 'front'], [/\bposterior\b/gi, 'back'],
  [/\bpalpation\b/gi, 'pressing'], [/\btenderness\b/gi, 'pain when pressed'], [/\btender\b/gi, 'sore when pressed'],
  [/\bauscultation\b/gi, 'listening with a stethoscope'], [/\bafebrile\b/gi, 'without fever'], [/\bfebrile\b/gi, 'feverish'],
  [/\bbenign\b/gi, 'not dangerous'], [/\bmalignant\b/gi, 'cancerous'], [/\bacute\b/gi, 'sudden'], [/\bchronic\b/gi, 'long-term'],
  [/\bexacerbation\b/gi, 'flare-up'], [/\bidiopathic\b/gi, 'of unknown cause'], [/\betiology\b/gi, 'cause'], [/\bprognosis\b/gi, 'outlook'],
  [/\bnephrolithiasis\b/gi, 'kidney stones'], [/\bcholelithiasis\b/gi, 'gallstones'], [/\bhematuria\b/gi, 'blood in the urine'],
  [/\bdysuria\b/gi, 'pain when urinating'], [/\barthralgia\b/gi, 'joint pain'], [/\bmyalgia\b/gi, 'muscle pain'], [/\bcephalgia\b/gi, 'headache'],
  [/\bpyrexia\b/gi, 'fever'], [/\btachycardia\b/gi, 'fast heart rate'], [/\bbradycardia\b/gi, 'slow heart rate'], [/\bhypoglycemia\b/gi, 'low blood sugar'],
  [/\bhyperglycemia\b/gi, 'high blood sugar'], [/\bhypothyroidism\b/gi, 'underactive thyroid'], [/\bhyperthyroidism\b/gi, 'overactive thyroid'],
  [/\bgastroesophageal reflux disease\b/gi, 'acid reflux'], [/\bosteoarthritis\b/gi, 'wear-and-tear arthritis'], [/\bradiculopathy\b/gi, 'pinched nerve'],
  [/\banti-inflammatory medicines?\b/gi, 'anti-inflammatory pain medicine'], [/\bambulat(e|ion|ing)\b/gi, 'walk$1'.replace('$1', '')],
  [/\binitiate\b/gi, 'start'], [/\bdiscontinue\b/gi, 'stop'], [/\butilize\b/gi, 'use'], [/\bprior to\b/gi, 'before'], [/\bsubsequently\b/gi, 'later'],
  [/\bregular rate and rhythm\b/gi, 'a normal heartbeat'], [/\bclear to auscultation on both sides\b/gi, 'clear when listened to'],
  [/\bnegative for\b/gi, 'no sign of'], [/\bunremarkable\b/gi, 'normal'], [/\bcontusion\b/gi, 'bruise'], [/\blaceration\b/gi, 'cut'],
  [/\bhemoglobin A1c\b/gi, 'hemoglobin A1c (average blood sugar over 3 months)'], [/\belectrocardiogram\b/gi, 'heart tracing (EKG)'],
  [/\bechocardiogram\b/gi, 'heart ultrasound (echocardiogram)'], [/\bdenies\b/g, 'does not have'], [/\bDenies\b/g, 'Does not have'],
  [/\bendorses\b/g, 'reports'], [/\bEndorses\b/g, 'Reports'], [/\bcomplains of\b/gi, 'has'],
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

function concise(text: string): string {
  const out: string[] = [];
  const seen: string[] = [];
  for (const line of text.split('\n')) {
    const kept: string[] = [];
    for (let s of sentences(line)) {
      for (const [re, rep] of WORDY) s = s.replace(re, rep);
      s = abbreviate(s);
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

function patientFriendly(text: string): string {
  let t = expandAbbreviations(text);
  for (const [re, rep] of PLAIN) t = t.replace(re, rep);
  for (const [re, rep] of WORDY.slice(0, 3)) t = t.replace(re, rep);
  t = t.replace(/\bmg\b/g, 'mg (milligrams)').replace(/\b(\d+)\/(\d+)\b(?!\s*(?:mmHg|\())/g, '$1/$2');
  // Long sentences are split at semicolons so each carries one idea.
  t = t.replace(/;\s*/g, '. ');
  return tidy(t);
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
