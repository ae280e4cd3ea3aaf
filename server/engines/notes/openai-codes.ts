/**
 * The model's codes checked against the code sets (issue 32 item 2): a code is kept only when the code set
 * has it and it fits what the model says it codes. Otherwise the code index's best match for the words
 * (the engine's concept and drug lexicons, resolved in the code set) replaces it, or the item is dropped.
 * A code is never passed through unchecked.
 */
import { stemmer } from 'stemmer';
import type { CodeIndex, RxConcept } from '@/server/codesets/index';
import { conditionMatcher, tokenize } from './embedded/lexicon';
import { findDrugs } from './embedded/meds';

export type CodeCheck<T> = { value: T; outcome: 'kept' | 'replaced' } | { value: undefined; outcome: 'dropped' };

const category = (code: string) => code.replace('.', '').toUpperCase().slice(0, 3);
// Words every ICD-10-CM description uses, which tie a description to nothing in particular.
const GENERIC = new Set(['unspecified', 'other', 'disease', 'disorder', 'without', 'with', 'complication', 'type', 'of', 'the', 'and', 'or', 'in', 'to', 'due', 'not', 'elsewhere', 'classified', 'site', 'acute', 'chronic']);
const content = (text: string) => new Set(tokenize(text).filter((t) => !GENERIC.has(t) && t.length > 2).map((t) => stemmer(t)));

/** The lexicon's reading of a description: the longest concept it names, as an ICD-10-CM code. */
function lexiconCode(description: string): string | undefined {
  return conditionMatcher.match(tokenize(description)).sort((a, b) => b.end - b.start - (a.end - a.start))[0]?.id;
}

/**
 * An ICD-10-CM code for a diagnosis: the model's code when the code set has it and its category is the one
 * the description names (or, when the lexicon does not know the description, when the code's own description
 * shares a word with it); else the code of the description's concept; else nothing.
 */
export function checkIcd10(codes: CodeIndex, description: string, modelCode: string | null): CodeCheck<{ code: string; description: string }> {
  const given = modelCode ? codes.icd10(modelCode.trim()) : undefined;
  const named = lexiconCode(description);
  const best = named ? codes.icd10(named) : undefined;
  if (given) {
    const fits = named ? category(named) === category(given.code) : [...content(description)].some((w) => content(given.description).has(w));
    if (fits) return { value: given, outcome: 'kept' };
  }
  return best ? { value: best, outcome: 'replaced' } : { value: undefined, outcome: 'dropped' };
}

/**
 * The RxNorm concept of an order: its ingredient as the drug lexicon reads the name, resolved in the code set.
 * The model's code is kept when it is that ingredient or one of its clinical drugs; a drug the code set does
 * not know is dropped.
 */
export function checkRxNorm(codes: CodeIndex, drugName: string, modelCode: string | null): CodeCheck<{ ingredient: string; concept: RxConcept }> {
  const ingredient = findDrugs(drugName)[0]?.ingredient ?? drugName.toLowerCase().trim();
  const concept = codes.rxByName(ingredient);
  if (!concept) return { value: undefined, outcome: 'dropped' };
  const code = modelCode?.trim();
  if (code && code === concept.rxcui) return { value: { ingredient, concept }, outcome: 'kept' };
  const scd = code ? codes.rxClinicalDrugs(ingredient).find((c) => c.rxcui === code) : undefined;
  if (scd) return { value: { ingredient, concept: scd }, outcome: 'kept' };
  return { value: { ingredient, concept }, outcome: code ? 'replaced' : 'kept' };
}
