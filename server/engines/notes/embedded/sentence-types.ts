/** The analysis's sentence and turn shapes, in a leaf file: analyze.ts and the passes it calls both use them. */
export type Role = 'CLINICIAN' | 'PATIENT';

export interface Sentence {
  i: number;
  turn: number;
  tid: string;
  role: Role;
  text: string;
  tokens: string[];
  question: boolean;
  /** A drug allergy statement (or its reaction): filed under Allergies only, never read as a finding (issue 27). */
  allergy?: boolean;
  /** Drugs (as said) the sentence says to avoid for a reaction it names: allergens it states, with no "allergy" heard. */
  allergens?: string[];
}

export interface Turn { index: number; tid: string; role: Role; text: string; sentences: Sentence[] }
