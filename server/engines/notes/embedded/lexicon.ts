import { ICD10_CONCEPTS } from '@/server/codesets/builtin/concepts';
import { DRUG_CONCEPTS } from '@/server/codesets/builtin/drugs';
import { ORDERABLES } from '@/server/codesets/orderables';

export function tokenize(text: string): string[] {
  return text.toLowerCase().replace(/’/g, "'").match(/[a-z0-9]+(?:['.\-/][a-z0-9]+)*/g) ?? [];
}

export interface Match { id: string; term: string; start: number; end: number }

/** Longest-match phrase dictionary over tokens; built once, matching is linear in the text. */
export class PhraseMatcher {
  private byFirst = new Map<string, Array<{ tokens: string[]; id: string; term: string }>>();
  constructor(entries: Array<[id: string, term: string]>) {
    for (const [id, term] of entries) {
      const tokens = tokenize(term);
      if (!tokens.length) continue;
      const list = this.byFirst.get(tokens[0]) ?? [];
      list.push({ tokens, id, term });
      this.byFirst.set(tokens[0], list);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  }
  /** Every [id, term] it was built from, to build a wider matcher. */
  entries(): Array<[id: string, term: string]> {
    return [...this.byFirst.values()].flat().map((e) => [e.id, e.term]);
  }
  match(tokens: string[]): Match[] {
    const out: Match[] = [];
    for (let i = 0; i < tokens.length; ) {
      const cands = this.byFirst.get(tokens[i]);
      let hit: Match | undefined;
      if (cands)
        for (const c of cands) {
          if (c.tokens.every((t, k) => tokens[i + k] === t || (tokens[i + k] === t + 's' && k === c.tokens.length - 1))) {
            hit = { id: c.id, term: c.term, start: i, end: i + c.tokens.length };
            break;
          }
        }
      if (hit) { out.push(hit); i = hit.end; } else i++;
    }
    return out;
  }
}

export const conditionMatcher = new PhraseMatcher(
  ICD10_CONCEPTS.flatMap(([code, ...terms]) => terms.map((t) => [code, t] as [string, string])),
);

/** LOINC code of the curated orderables keyed by every alias ("basic metabolic panel", "bmp"). */
export const orderableMatcher = new PhraseMatcher(ORDERABLES.flatMap((o) => o.aliases.map((a) => [o.code, a] as [string, string])));

/** Ingredient name keyed by every spoken alias. */
export const drugMatcher = new PhraseMatcher(
  DRUG_CONCEPTS.flatMap(([ing, ...aliases]) => [ing, ...aliases].map((t) => [ing, t] as [string, string])),
);

/** First term of each concept: how the problem is named in the note when nothing better was heard. */
export const CONCEPT_NAME = new Map(ICD10_CONCEPTS.map(([code, first]) => [code, first]));

/** Body systems for review of systems and exam grouping. */
export const ROS_SYSTEMS: Array<[system: string, terms: string[]]> = [
  ['Constitutional', ['fever', 'fevers', 'chills', 'weight loss', 'weight gain', 'fatigue', 'night sweats', 'tired', 'tiredness', 'malaise', 'appetite', 'sweats', 'body aches']],
  ['Eyes', ['blurred vision', 'blurry vision', 'vision changes', 'eye pain', 'double vision']],
  ['Ears, Nose, Mouth and Throat', ['sore throat', 'nasal congestion', 'congestion', 'runny nose', 'ear pain', 'sinus pressure', 'hearing loss', 'sneezing', 'hoarseness', 'post nasal drip', 'stuffy nose']],
  ['Cardiovascular', ['chest pain', 'palpitations', 'chest pains', 'chest pressure', 'chest tightness', 'swelling in your legs', 'swelling in my legs', 'leg swelling', 'dyspnea on exertion', 'orthopnea', 'lower extremity edema', 'edema']],
  ['Respiratory', ['shortness of breath', 'cough', 'wheezing', 'trouble breathing', 'difficulty breathing', 'short of breath', 'coughing', 'sputum']],
  ['Gastrointestinal', ['nausea', 'vomiting', 'diarrhea', 'constipation', 'abdominal pain', 'belly pain', 'stomach pain', 'heartburn', 'blood in stool', 'blood in your stool', 'reflux', 'bloating', 'rectal bleeding', 'black stools', 'difficulty swallowing']],
  ['Genitourinary', ['burning with urination', 'painful urination', 'blood in urine', 'blood in your urine', 'frequent urination', 'urinary frequency', 'dysuria', 'hematuria', 'incontinence', 'urgency']],
  ['Musculoskeletal', ['joint pain', 'back pain', 'knee pain', 'shoulder pain', 'hip pain', 'neck pain', 'muscle aches', 'muscle pain', 'joint swelling', 'stiffness', 'ankle pain', 'wrist pain', 'elbow pain', 'foot pain', 'leg pain', 'arm pain', 'hand pain', 'swelling', 'weakness']],
  ['Integumentary', ['rash', 'rashes', 'itching', 'skin changes', 'lesions', 'bruising', 'hives']],
  ['Neurological', ['headache', 'headaches', 'dizziness', 'numbness', 'tingling', 'lightheadedness', 'lightheaded', 'dizzy', 'syncope', 'passing out', 'seizures', 'tremor', 'memory loss', 'loss of consciousness']],
  ['Psychiatric', ['depression', 'anxiety', 'suicidal ideation', 'suicidal thoughts', 'mood changes', 'trouble sleeping', 'insomnia', 'stress', 'thoughts of harming yourself', 'homicidal ideation']],
  ['Endocrine', ['heat intolerance', 'cold intolerance', 'excessive thirst', 'polyuria', 'polydipsia']],
  ['Hematologic/Lymphatic', ['easy bruising', 'swollen glands', 'bleeding']],
];
export const rosMatcher = new PhraseMatcher(ROS_SYSTEMS.flatMap(([sys, terms]) => terms.map((t) => [sys, t] as [string, string])));
