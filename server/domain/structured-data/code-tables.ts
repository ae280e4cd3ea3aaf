/**
 * The tables the editor codes allergies and lab/imaging orders against: the same curated tables the notes
 * engine codes with (server/codesets, issue 29 items 1 and 2), so an edited item and a generated one agree.
 */
export { ORDERABLES, type Orderable } from '../../codesets/orderables';
export { DRUG_CLASSES, type DrugClass } from '../../codesets/drug-classes';

/** Every word of the query in the name or in one of the aliases. */
export function matchesWords(query: string, names: readonly string[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return names.some((n) => {
    const t = n.toLowerCase();
    return words.every((w) => t.includes(w));
  });
}
