/**
 * The tables the editor codes allergies and lab/imaging orders against. Placeholder until the curated tables
 * of issue 29 items 1 and 2 land (helper h2): they are re-exported from here so the editor reads the same
 * tables the notes engine codes with.
 */
export interface Orderable {
  code: string;
  display: string;
  category: 'LAB' | 'IMAGING';
}
export interface DrugClass {
  code: string;
  display: string;
}
export const ORDERABLES: readonly Orderable[] = [];
export const DRUG_CLASSES: readonly DrugClass[] = [];
