/**
 * The note divisions ACI-BENCH scores separately (Yim et al. 2023): subjective, objective_exam,
 * objective_results and assessment_and_plan. A note is split at its upper-case section headings and each
 * heading is filed by name, so the engine's medication and allergy lists (written after the plan) count
 * as subjective, as the reference notes' do. A line that is not a known heading ("MSK:") stays in the
 * division before it.
 */
export type Division = 'subjective' | 'objective_exam' | 'objective_results' | 'assessment_and_plan';
export const DIVISIONS: Division[] = ['subjective', 'objective_exam', 'objective_results', 'assessment_and_plan'];

const HEADING = /^[A-Z][A-Z &/,()-]{2,}:?$/;
const BY_NAME: Array<[RegExp, Division]> = [
  [/^(?:PHYSICAL EXAM(?:INATION)?|EXAM(?:INATION)?|VITALS(?: REVIEWED)?|VITAL SIGNS)$/, 'objective_exam'],
  [/^(?:RESULTS|LABS?|LAB RESULTS|IMAGING|DATA|DIAGNOSTIC(?:S| RESULTS)?)$/, 'objective_results'],
  [/^(?:ASSESSMENT(?: AND PLAN)?|PLAN|IMPRESSION(?: AND PLAN)?|INSTRUCTIONS|PATIENT INSTRUCTIONS|PROCEDURE)$/, 'assessment_and_plan'],
  [/^(?:CHIEF COMPLAINT|HISTORY OF PRESENT ILLNESS|HPI|REVIEW OF SYSTEMS|(?:PAST )?(?:MEDICAL |SURGICAL |FAMILY |SOCIAL |BIRTH )?HISTORY|(?:CURRENT )?MEDICATIONS|ALLERGIES|IMMUNIZATIONS)$/, 'subjective'],
];

export function splitDivisions(note: string): Record<Division, string> {
  const out: Record<Division, string[]> = { subjective: [], objective_exam: [], objective_results: [], assessment_and_plan: [] };
  let current: Division = 'subjective';
  for (const line of note.split('\n')) {
    const l = line.trim();
    if (HEADING.test(l)) {
      const name = l.replace(/:$/, '');
      const hit = BY_NAME.find(([re]) => re.test(name));
      if (hit) { current = hit[1]; continue; }
    }
    out[current].push(line);
  }
  return Object.fromEntries(DIVISIONS.map((d) => [d, out[d].join('\n').replace(/\n{3,}/g, '\n\n').trim()])) as Record<Division, string>;
}
