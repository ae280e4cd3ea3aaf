/**
 * The visit of issue 14, as the web app user recorded it, and the five facts a clinician must find in its
 * note: hypertension, type 2 diabetes, metformin 500 mg twice a day, lisinopril 10 mg once a day, and
 * follow-up in 4 weeks.
 */
import type { NoteResult } from '../../server/engines/notes/types';

export const ISSUE_VISIT = `[doctor] Good morning. What brings you in today?
[patient] I am here for my blood pressure and my sugar.
[doctor] You have hypertension and type two diabetes. Are you taking metformin five hundred milligrams twice a day?
[patient] Yes, I take it every day.
[doctor] Any chest pain or shortness of breath?
[patient] No.
[doctor] Your blood pressure today is one fifty eight over ninety six. I will start lisinopril ten milligrams once a day.
[doctor] Assessment: uncontrolled hypertension. Plan: start lisinopril, check a basic metabolic panel, and follow up in four weeks.
[patient] Okay, thank you.`;

export function issueVisitFacts(r: Pick<NoteResult, 'summary' | 'structured_data'>): Array<[string, boolean]> {
  const dx = r.structured_data.diagnoses.values.map((d) => d.codes[0]?.code ?? '');
  const orders = [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];
  const has = (drug: string, qty: number, freq: string) =>
    orders.some((o) => o.drug_name === drug && o.dosage.quantity === qty && o.dosage.unit === 'MG' && o.frequency.structured_value === freq);
  const text = r.summary.map((s) => s.content).join('\n');
  return [
    ['hypertension (I10)', dx.some((c) => c.startsWith('I10'))],
    ['type 2 diabetes (E11)', dx.some((c) => c.startsWith('E11'))],
    ['metformin 500 MG TWO_A_DAY', has('metformin', 500, 'TWO_A_DAY')],
    ['lisinopril 10 MG ONE_A_DAY', has('lisinopril', 10, 'ONE_A_DAY')],
    ['follow-up in 4 weeks', /follow up (?:with me )?in 4 weeks/i.test(text)],
  ];
}
