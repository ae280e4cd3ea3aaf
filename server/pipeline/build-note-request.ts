import { eq } from 'drizzle-orm';
import { DEFAULT_NOTE_SECTIONS } from '@/lib/info';
import type { NoteStyleDefinition } from '@/lib/info/note-styles';
import type { SessionContext } from '@/lib/contracts/sessions';
import type { AppContext } from '../context';
import { tenantDb } from '../db/index';
import { visitNoteSettings, type ambientSessions } from '../db/schema';
import { getPreferences } from '../domain/preferences/get-preferences';
import { getPatientContext } from '../domain/patient-context/get-patient-context';
import { sessionScope } from '../domain/scope/session-scope';
import { resolveNoteStyle } from '../domain/note-style/resolve-note-style';
import { styleNoteRequest } from '../domain/note-style/style-note-request';
import type { MedicationOrder, NoteRequest, NoteSectionRequest, TranscriptLine } from '../engines/notes/types';

function emrContext(ctx: Awaited<ReturnType<typeof getPatientContext>>): NoteRequest['emrContext'] {
  if (!ctx) return undefined;
  return {
    medications: ctx.medications.filter((m) => m.active).map((m) => ({ name: m.name, rxcui: m.rxcui ?? undefined, status: m.status })),
    problems: ctx.problems.filter((p) => p.active).map((p) => ({ name: p.name, code: p.icd10 ?? undefined })),
    // Issue 29: the record's allergies reach the coded data (REPORTED, or CONFIRMED when the visit says so too).
    allergies: ctx.allergies.filter((a) => a.active).map((a) => ({ substance: a.substance, rxcui: a.rxcui ?? undefined, reactions: a.reactions })),
  };
}

/** Fills what a partner may leave out of a context order with the neutral values the engine's type expects. */
function contextOrder(o: NonNullable<NonNullable<SessionContext['orders']>['medication_orders']>['values'][number]): MedicationOrder {
  return {
    drug_name: o.drug_name,
    medication_code: o.medication_code ?? null,
    status: o.status,
    dosage: { quantity: o.dosage?.quantity ?? null, unit: o.dosage?.unit ?? null, raw_value: o.dosage?.raw_value ?? null },
    frequency: { raw_value: o.frequency?.raw_value ?? null, structured_value: o.frequency?.structured_value ?? null },
    medication_timing: o.medication_timing ?? null,
    route: o.route ?? null,
    duration_in_days: o.duration_in_days ?? null,
    number_of_refills: o.number_of_refills ?? null,
    instructions: o.instructions ?? null,
    metadata: { origin: o.metadata?.origin ?? 'EMR', encounter_relation: o.metadata?.encounter_relation ?? 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: o.linked_diagnosis_codes ?? [],
  };
}

export interface VisitNoteRequest {
  request: NoteRequest;
  /** The style the note is written in (issue 31): the visit's, else the clinician's default; null: the requested sections as they are. */
  style: NoteStyleDefinition | null;
  previsitNote: string | null;
}

/**
 * The note request for a session's transcript: its context, the clinician's preferences, the patient's EMR
 * context, and the visit's note style and pre-visit note. Finalisation and a restyle of a finished visit
 * both build it here, so a restyled note is written from the same inputs as the first.
 */
export async function buildNoteRequest(app: AppContext, session: typeof ambientSessions.$inferSelect, lines: TranscriptLine[]): Promise<VisitNoteRequest> {
  const context = (session.context ?? {}) as SessionContext;
  const prefs = (await getPreferences(app, sessionScope(session))).personalization_preference;
  const settings = await tenantDb(app, sessionScope(session)).find(visitNoteSettings, eq(visitNoteSettings.sessionId, session.id));
  const sections: NoteSectionRequest[] = context.sections?.length
    ? context.sections.map((s) => ({ loinc: s.loinc, ...(s.precharted_content ? { precharted: s.precharted_content as NoteSectionRequest['precharted'] } : {}) }))
    : DEFAULT_NOTE_SECTIONS.map((loinc) => ({ loinc }));
  const emrPatientId = context.patient?.emr_patient_id;
  const request: NoteRequest = {
    transcript: lines,
    sections,
    preferences: { verbosity: prefs.verbosity, sectionFormat: Object.fromEntries(prefs.section_format.map((f) => [f.loinc, f.style])) },
    visit: context.visit,
    patient: context.patient ? { dob: context.patient.dob, sex: context.patient.sex } : undefined,
    specialty: context.provider?.specialty,
    emrContext: emrPatientId ? emrContext(await getPatientContext(app, sessionScope(session), emrPatientId)) : undefined,
    contextDiagnoses: context.diagnoses?.values.map((d) => ({ ...d, codes: d.codes.map((c) => ({ ...c, description: c.description ?? '' })) })),
    contextMedicationOrders: context.orders?.medication_orders?.values.map(contextOrder),
    hccModel: app.config.hccModel,
    sessionId: session.id,
  };
  const style = resolveNoteStyle(settings?.noteStyle ?? prefs.note_style, prefs.templates);
  return { request: style ? styleNoteRequest(request, style) : request, style, previsitNote: settings?.previsitNote ?? null };
}
