import { and, desc, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { PreChartResponse } from '@/lib/contracts/note-style';
import type { SessionContext, SummarySection } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { ambientSessions, sessionContent, visitNoteSettings } from '../../db/schema';
import { getOwnedSession, type SessionRow } from '../sessions/get-owned-session';
import { getPatientContext } from '../patient-context/get-patient-context';

/** The plan sections a note may carry, in the order they are looked for. */
const PLAN_LOINCS = ['51847-2', '18776-5'];

/** The plan of the same patient's last finished visit with this clinician (by EMR patient id, else MRN). */
async function lastPlan(app: AppContext, auth: ServicePrincipal, session: SessionRow, context: SessionContext): Promise<PreChartResponse['last_plan']> {
  const emrId = context.patient?.emr_patient_id;
  const mrn = context.patient?.mrn;
  if (!emrId && !mrn) return null;
  const samePatient = or(
    emrId ? sql`${ambientSessions.context}->'patient'->>'emr_patient_id' = ${emrId}` : undefined,
    mrn ? sql`${ambientSessions.context}->'patient'->>'mrn' = ${mrn}` : undefined,
  );
  const prior = (
    await tenantDb(app, auth).select(ambientSessions, { id: ambientSessions.id, createdAt: ambientSessions.createdAt, summary: sessionContent.summary }, and(ne(ambientSessions.id, session.id), eq(ambientSessions.status, 'completed'), lt(ambientSessions.createdAt, session.createdAt), samePatient))
      .innerJoin(sessionContent, eq(sessionContent.sessionId, ambientSessions.id))
      .orderBy(desc(ambientSessions.createdAt))
      .limit(1)
  )[0];
  if (!prior) return null;
  const sections = prior.summary as SummarySection[];
  const plan = PLAN_LOINCS.map((l) => sections.find((s) => s.loinc_code === l && s.content.trim())).find(Boolean);
  return plan ? { ambient_session_id: prior.id, date: prior.createdAt.toISOString(), text: plan.content.trim() } : null;
}

/**
 * What the clinician should see before pressing record (issue 31): problems, medications and allergies from
 * the session context and the patient's ingested EMR data, the last visit's plan, and the pre-visit note.
 */
export async function getPreChart(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<PreChartResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const context = (session.context ?? {}) as SessionContext;
  const emr = context.patient?.emr_patient_id ? await getPatientContext(app, auth, context.patient.emr_patient_id) : null;
  const problems: PreChartResponse['problems'] = [];
  // The context and the EMR often name the same item: it is listed once, as the context names it.
  const add = <T extends { name: string }>(list: T[], item: T) => {
    const key = item.name.trim().toLowerCase();
    if (key && !list.some((x) => x.name.trim().toLowerCase() === key)) list.push(item);
  };
  for (const d of context.diagnoses?.values ?? []) {
    const code = d.codes[0];
    add(problems, { name: d.diagnosis_note?.trim() || code?.description || code?.code || '', code: code?.code ?? null });
  }
  for (const p of emr?.problems ?? []) if (p.active) add(problems, { name: p.name, code: p.icd10 });
  const medications: PreChartResponse['medications'] = [];
  for (const o of context.orders?.medication_orders?.values ?? []) {
    const dose = [o.dosage?.raw_value ?? (o.dosage?.quantity != null ? `${o.dosage.quantity} ${(o.dosage.unit ?? '').toLowerCase()}`.trim() : null), o.frequency?.raw_value].filter(Boolean).join(' ');
    add(medications, { name: o.drug_name, detail: dose || null });
  }
  for (const m of emr?.medications ?? []) if (m.active) add(medications, { name: m.name, detail: m.dosage_text });
  const allergies: PreChartResponse['allergies'] = [];
  for (const a of emr?.allergies ?? []) if (a.active) add(allergies, { name: a.substance, reaction: a.reactions.join(', ') || null });
  const settings = await tenantDb(app, auth).find(visitNoteSettings, eq(visitNoteSettings.sessionId, session.id));
  return { problems, medications, allergies, last_plan: await lastPlan(app, auth, session, context), previsit_note: settings?.previsitNote ?? null };
}
