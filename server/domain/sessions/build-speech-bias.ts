import type { SessionContext } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import type { SpeechBias } from '../../engines/speech/types';
import { getPatientContext } from '../patient-context/get-patient-context';
import { sessionScope } from '../scope/session-scope';
import type { SessionRow } from './get-owned-session';

/**
 * What a session's recogniser should expect to hear (issue 14): the patient's active EMR medications and
 * problems ingested through CKG, the context's diagnoses and medication orders, the chief complaint and
 * reason for visit, the provider's specialty, and the precharted section text. Undefined when the session
 * carries none of these.
 */
export async function buildSpeechBias(app: AppContext, session: Pick<SessionRow, 'context' | 'partnerId' | 'providerId'>): Promise<SpeechBias | undefined> {
  const context = (session.context ?? {}) as SessionContext;
  const terms: string[] = [];
  const text: string[] = [];
  const emrPatientId = context.patient?.emr_patient_id;
  if (emrPatientId) {
    const emr = await getPatientContext(app, sessionScope(session), emrPatientId);
    for (const m of emr?.medications ?? []) if (m.active) terms.push(m.name);
    for (const p of emr?.problems ?? []) if (p.active) terms.push(p.name);
  }
  for (const d of context.diagnoses?.values ?? []) {
    for (const c of d.codes) if (c.description) terms.push(c.description);
    if (d.diagnosis_note) text.push(d.diagnosis_note);
  }
  for (const o of context.orders?.medication_orders?.values ?? []) terms.push(o.drug_name);
  if (context.visit?.chief_complaint) terms.push(context.visit.chief_complaint);
  if (context.visit?.reason_for_visit) terms.push(context.visit.reason_for_visit);
  if (context.provider?.specialty) terms.push(context.provider.specialty.toLowerCase().replace(/_/g, ' '));
  for (const s of context.sections ?? []) {
    for (const p of s.precharted_content ?? []) {
      if (p.type === 'string') text.push(p.content);
      else for (const v of p.values ?? []) if (typeof v.value === 'string') text.push(v.value);
    }
  }
  if (!terms.length && !text.length) return undefined;
  return { terms, ...(text.length ? { text: text.join('\n') } : {}) };
}
