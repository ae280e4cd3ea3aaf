import { PLAIN_LEXICON } from '@/server/engines/notes/embedded/plain-lexicon';

/**
 * Clinical wording → plain words a patient reads at about a sixth-grade level. Only words are swapped
 * and long sentences split; nothing is added that the note does not say.
 */

/** Longest phrases first so "type 2 diabetes mellitus" wins over "diabetes mellitus". */
const LEXICON: Array<[RegExp, string]> = (
  [
    ['type 2 diabetes mellitus', 'type 2 diabetes'],
    ['diabetes mellitus type 2', 'type 2 diabetes'],
    ['diabetes mellitus', 'diabetes'],
    ['essential hypertension', 'high blood pressure'],
    ['hypertension', 'high blood pressure'],
    ['hyperlipidemia', 'high cholesterol'],
    ['dyslipidemia', 'high cholesterol'],
    ['hypercholesterolemia', 'high cholesterol'],
    ['upper respiratory infection', 'cold'],
    ['upper respiratory tract infection', 'cold'],
    ['urinary tract infection', 'bladder infection'],
    ['gastroesophageal reflux disease', 'acid reflux'],
    ['gastro-esophageal reflux disease', 'acid reflux'],
    ['otitis media', 'middle ear infection'],
    ['with exacerbation', 'with a flare-up'],
    ['exacerbation', 'flare-up'],
    ['hyperglycemia', 'high blood sugar'],
    ['hypoglycemia', 'low blood sugar'],
    ['gastroesophageal reflux', 'acid reflux'],
    ['myocardial infarction', 'heart attack'],
    ['cerebrovascular accident', 'stroke'],
    ['chronic obstructive pulmonary disease', 'COPD, a long-term lung disease'],
    ['shortness of breath', 'trouble breathing'],
    ['dyspnea', 'trouble breathing'],
    ['pyrexia', 'fever'],
    ['febrile', 'with a fever'],
    ['afebrile', 'without a fever'],
    ['cephalgia', 'headache'],
    ['emesis', 'throwing up'],
    ['nausea and vomiting', 'feeling sick and throwing up'],
    ['vomiting', 'throwing up'],
    ['diarrhea', 'loose stools'],
    ['edema', 'swelling'],
    ['erythema', 'redness'],
    ['pruritus', 'itching'],
    ['syncope', 'fainting'],
    ['analgesics?', 'pain medicine'],
    ['antibiotics?', 'germ-killing medicine'],
    ['antipyretics?', 'fever medicine'],
    ['over-the-counter', 'store-bought'],
    ['acetaminophen', 'acetaminophen (Tylenol)'],
    ['ibuprofen', 'ibuprofen (Advil)'],
    ['hydration', 'drinking fluids'],
    ['increase fluid intake', 'drink more fluids'],
    ['fluid intake', 'fluids'],
    ['follow-up', 'follow up'],
    ['followup', 'follow up'],
    ['as needed', 'when you need it'],
    ['prn', 'when you need it'],
    ['bid', 'two times a day'],
    ['tid', 'three times a day'],
    ['qid', 'four times a day'],
    ['qhs', 'at bedtime'],
    ['qd', 'once a day'],
    ['daily', 'each day'],
    ['twice a day', 'two times a day'],
    ['po', 'by mouth'],
    ['orally', 'by mouth'],
    ['discontinue', 'stop'],
    ['discontinued', 'stopped'],
    ['initiate', 'start'],
    ['initiated', 'started'],
    ['commence', 'start'],
    ['administer', 'give'],
    ['evaluation', 'check'],
    ['evaluate', 'check'],
    ['monitor', 'watch'],
    ['symptoms', 'signs'],
    ['symptomatic treatment', 'care for your signs'],
    ['persist', 'last'],
    ['persists', 'lasts'],
    // Not in "moderate persistent asthma", a class of asthma.
    ['persistent(?! asthma)', 'lasting'],
    ['worsen', 'get worse'],
    ['worsens', 'gets worse'],
    ['worsening', 'getting worse'],
    ['resolve', 'go away'],
    ['resolves', 'goes away'],
    ['approximately', 'about'],
    ['additional', 'more'],
    ['prior to', 'before'],
    ['subsequently', 'then'],
    ['utilize', 'use'],
    ['physician', 'doctor'],
    ['medications?', 'medicine'],
    ['laboratory', 'lab'],
    ['chronic', 'long-term'],
    ['bilateral', 'both sides'],
    ['abdominal', 'belly'],
    ['abdomen', 'belly'],
    ['cardiac', 'heart'],
    ['pulmonary', 'lung'],
    ['renal', 'kidney'],
    ['hepatic', 'liver'],
    ['emergency department', 'emergency room'],
  ] as Array<[string, string]>
)
  .sort((a, b) => b[0].length - a[0].length)
  .map(([from, to]) => [new RegExp(`\\b${from}\\b`, 'gi'), to]);

/** The patient spoken of in the third person becomes "you". */
const PERSON: Array<[RegExp, string]> = [
  [/\b(?:the )?(?:patient|pt)(?: is| was)? (?:advised|instructed|told|encouraged|counseled) to\b/gi, 'please'],
  [/\b(?:the )?(?:patient|pt) (?:was|is) (?:advised|instructed|told|encouraged) that\b/gi, 'we told you that'],
  // "Should" stays advice: "if you have any chest pain, you should go to the emergency room", not "you will go".
  [/\b(?:the )?(?:patient|pt) will\b/gi, 'you will'],
  [/\b(?:the )?(?:patient|pt) should\b/gi, 'you should'],
  [/\b(?:the )?(?:patient|pt) (?:is|was)\b/gi, 'you are'],
  [/\b(?:the )?(?:patient|pt) has\b/gi, 'you have'],
  [/\b(?:the )?(?:patient|pt)'s\b/gi, 'your'],
  [/\b(?:the )?(?:patient|pt)\b/gi, 'you'],
  [/\b(?:he|she) will\b/gi, 'you will'],
  [/\b(?:he|she) should\b/gi, 'you should'],
  [/\b(?:he|she) (?:is|was)\b/gi, 'you are'],
  [/\b(?:he|she) has\b/gi, 'you have'],
  [/\b(?:his|her)\b/gi, 'your'],
  // A note says "their" of a patient whose sex it was not told: "if their breathing gets worse".
  [/\btheir\b/gi, 'your'],
];

function keepCase(original: string, replacement: string): string {
  return /^[A-Z]/.test(original) && /^[a-z]/.test(replacement) ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
}

export function plainWords(text: string): string {
  let out = text;
  for (const [re, to] of PERSON) out = out.replace(re, (m) => keepCase(m, to));
  for (const [re, to] of LEXICON) out = out.replace(re, (m) => keepCase(m, to));
  return out.replace(/\bplease please\b/gi, 'please').replace(/\s{2,}/g, ' ').trim();
}

/** Comma-separated qualifiers of a code's description that only coding needs: a patient's summary leaves them out. */
const CODING_QUALIFIER = /^(?:unspecified\b.*|uncomplicated|(?:site|part) unspecified|site not specified|not specified as\b.*|not intractable|intractable|not elsewhere classified|initial encounter\b.*|subsequent encounter\b.*|sequela\b.*)$/i;
/** A side and a body part, as ICD-10-CM puts them after a comma ("…, right knee"). */
const SITE = /^(?:right|left)\s+[a-z ]+$/i;

/**
 * Condition words as the sourced lexicon (plain-lexicon.ts) says them. Only these: others of its entries misread
 * inside a code's description ("acute" → "sudden bronchitis", "depression" → "major low mood disorder",
 * "obesity" → "morbid high body weight").
 */
const SOURCED = new Map(PLAIN_LEXICON);
const CONDITION_WORDS: Array<[RegExp, string]> = [
  'hypothyroidism', 'tachycardia', 'bradycardia', 'hematuria', 'dysuria', 'insomnia', 'myalgia', 'arthralgia',
  'neuropathy', 'radiculopathy', 'laceration', 'contusion', 'osteoporosis', 'dysphagia', 'pharyngitis', 'sinusitis', 'cellulitis',
  'urticaria', 'vertigo', 'paresthesia',
].flatMap((from) => {
  const to = SOURCED.get(from);
  return to ? [[new RegExp(`\\b${from}\\b`, 'gi'), to] as [RegExp, string]] : [];
});

/**
 * A condition as a patient reads it, from its ICD-10-CM description: "Unilateral primary osteoarthritis, right
 * knee" is "Osteoarthritis of the right knee", "Type 2 diabetes mellitus without complications" is "Type 2
 * diabetes", "Sprain of unspecified ligament of right ankle, initial encounter" is "Sprain of ligament of the
 * right ankle". Qualifiers that say what was not found or how the code was chosen are dropped; the condition,
 * its side and its site stay.
 */
export function conditionName(description: string): string {
  const [head = '', ...rest] = description
    .replace(/\s*\([^)]*\)/g, '')
    .split(/,\s*/)
    .map((part) => part.trim());
  let name = head
    .replace(/\s+without\b.*$/i, '')
    .replace(/^unilateral\s+/i, '')
    .replace(/\bprimary (osteoarthritis)\b/i, '$1')
    .replace(/^bilateral\s+(.+)\s+of\s+(knee|hip|shoulder|elbow|wrist|hand|ankle|ear|eye|leg|arm)$/i, '$1 of both $2s')
    .replace(/^bilateral\s+(.+)\s+of\s+foot$/i, '$1 of both feet');
  for (let i = 0; i < rest.length; i++) {
    const part = rest[i]!;
    if (/^without\b/i.test(part)) {
      // "Without A, B, and C" negates each item of the list, not only the first ("…, psychotic disturbance, …").
      const last = rest.findIndex((p, j) => j > i && /^(?:and|or)\b/i.test(p));
      if (last > i) i = last;
      continue;
    }
    if (!part || CODING_QUALIFIER.test(part)) continue;
    name += SITE.test(part) ? ` of the ${part.toLowerCase()}` : `, ${part}`;
  }
  name = name
    .replace(/\bunspecified\s+/gi, '')
    .replace(/\s+unspecified\b/gi, '')
    .replace(/,?\s*not elsewhere classified\b/gi, '')
    .replace(/,?\s*(?:initial|subsequent) encounter\b.*$/i, '')
    .replace(/\b(of|in) (right|left)\b/gi, '$1 the $2')
    .replace(/\bthe the\b/gi, 'the');
  let plain = plainWords(name.replace(/^([a-z])/, (c) => c.toUpperCase()));
  for (const [re, to] of CONDITION_WORDS) plain = plain.replace(re, (m) => keepCase(m, to));
  return plain;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

function finish(s: string): string {
  const t = s.trim().replace(/^[-*•\d.)\s]+/, '').replace(/[,;:\s]+$/, '');
  if (!t) return '';
  const cap = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(cap) ? cap : `${cap}.`;
}

/** A note's text as short sentences: one per line item, split at semicolons and, when long, at "and". */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const sentence of line.split(/(?<=[.!?])\s+(?=[A-Z0-9])/)) {
      for (const clause of sentence.split(/;\s*/)) {
        if (words(clause) <= 14) {
          out.push(finish(clause));
          continue;
        }
        // Long clauses split at ", and" / " and " where both halves still read as sentences.
        const parts = clause.split(/,?\s+and\s+(?=(?:keep|take|start|stop|drink|rest|use|call|return|come|follow|get|avoid|please|you|we)\b)/i);
        for (const p of parts) out.push(finish(p));
      }
    }
  }
  return out.filter((s) => words(s) >= 2);
}
