import type { FactResult, Misfiled } from './types';

const EXAM = /^(?:29545-1|8716-3)$/;
const FINDINGS = /^(?:29545-1|10187-3|8716-3)$/;

/**
 * A fact in a section where a clinician does not look for it (issue 27: "Acetaminophen 500 mg every 6 hours
 * as needed" in the physical exam; a penicillin allergy's rash as a review-of-systems finding): a drug,
 * dose or frequency in the exam, or an allergy or its reaction among the findings. Sections are known by
 * LOINC code, or by heading when the note has none.
 */
export function misfiled(section: { loinc?: string; title: string }, facts: FactResult[]): Misfiled | undefined {
  const exam = section.loinc ? EXAM.test(section.loinc) : /\b(?:exam|examination|vital signs)\b/i.test(section.title);
  const findings = section.loinc ? FINDINGS.test(section.loinc) : /\b(?:exam|examination|review of systems|vital signs)\b/i.test(section.title);
  if (exam && facts.some((f) => f.fact.kind === 'drug' || (f.fact.kind === 'dose' && f.fact.drug))) return 'medication-in-exam';
  if (findings && facts.some((f) => f.fact.kind === 'allergy' || f.reason === 'allergy-reaction-as-finding')) return 'allergy-in-findings';
  return undefined;
}
