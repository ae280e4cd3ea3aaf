/**
 * A live server with one completed visit whose note is seeded (as server/test/fhir-export-fixture.ts does),
 * for the structured-data edit suites (issue 29 items 5 and 6). The note is stored in the shape from before
 * issue 29 (no allergies, no service orders), as older notes are. The partner opted in to NOTE_SIGNED, and a
 * second visit shares the encounter so the encounter-level structured data merges two notes.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { openTestDatabase, startServer } from './harness';
import { createTestPartner, registerAndLogin } from './partners';
import { createSession } from './session-api';
import { testApi } from './api-client';
import { setSessionContext } from '@/lib/contracts/routes/sessions';
import {
  addAllergy,
  addDiagnosis,
  addMedicationOrder,
  addServiceOrder,
  removeAllergy,
  removeDiagnosis,
  removeMedicationOrder,
  removeServiceOrder,
  updateAllergy,
  updateDiagnosis,
  updateMedicationOrder,
  updateServiceOrder,
} from '@/lib/contracts/routes/structured-data';
import { sessionContent } from '../db/schema';
import { transitionSession } from '../domain/sessions/transition-session';
import { startTestReceiver } from '../webhooks/testing/receiver';
import { order } from './fhir-export-fixture';

export type StructuredDataFixture = Awaited<ReturnType<typeof seedStructuredDataVisit>>;

export async function seedStructuredDataVisit() {
  const receiver = await startTestReceiver();
  let server = await startServer({ env: { FHIR_VALIDATE: 'true' } });
  const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/hooks'), extra: { notify_note_signed: true } });
  const dr = await registerAndLogin(server.baseUrl, partner);
  const colleague = await registerAndLogin(server.baseUrl, partner);
  const outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  const reader = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl, { access_level: 'READONLY' }));
  const visit = await createSession(server, dr);
  const context = {
    patient: { emr_patient_id: `PT-${crypto.randomUUID().slice(0, 8)}`, dob: '1961-05-02', sex: 'female' },
    visit: { chief_complaint: 'Blood pressure check', visit_type: 'FOLLOW_UP', encounter_type: 'AMBULATORY' },
  };
  expect((await testApi(server, dr).call(setSessionContext, { params: { ambient_session_id: visit.ambient_session_id }, body: context })).status).toBe(200);
  const second = (await createSession(server, dr, { encounter_id: visit.encounter_id })).ambient_session_id;
  const pending = (await createSession(server, dr)).ambient_session_id;
  await server.stop();

  const database = await openTestDatabase(server.dataDir);
  const db = database.db;
  const note = (summary: string, structuredData: unknown) => ({
    engine: 'embedded',
    summary: [{ title: 'Assessment and plan', content: summary, loinc_code: '51847-2', source_transcripts: [] }],
    structuredData,
  });
  await db.insert(sessionContent).values([
    {
      sessionId: visit.ambient_session_id,
      ...note('Hypertension: increase lisinopril to 20 mg daily. Acetaminophen as needed for knee pain.', {
        diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }], diagnosis_note: 'Blood pressure above goal.' }] },
        orders: {
          medication_orders: {
            values: [order('lisinopril', '29046', 'CHANGED', { dosage: { quantity: 20, unit: 'MG', raw_value: '20 mg' }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' }, medication_timing: null })],
            partial_values: [order('acetaminophen', '161', 'NEW', { dosage: { quantity: null, unit: null, raw_value: null }, frequency: { raw_value: null, structured_value: null }, medication_timing: null })],
          },
        },
        section_structured_values: [],
      }),
    },
    {
      sessionId: second,
      ...note('Knee pain reviewed.', {
        diagnoses: { values: [{ codes: [{ code: 'M25.561', description: 'Pain in right knee', type: 'ICD10' }], diagnosis_note: 'Pain in right knee.' }] },
        orders: { medication_orders: { values: [], partial_values: [] } },
        section_structured_values: [],
      }),
    },
  ]);
  for (const id of [visit.ambient_session_id, second]) for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, id, to);
  await database.close();
  server = await startServer({ dataDir: server.dataDir, env: { FHIR_VALIDATE: 'true' } });
  return { server, receiver, partner, dr, colleague, outsider, reader, visit, second, pending };
}

/** The seeded visit as a suite reads it: the fixture, and the visit's session id (`visit.ambient_session_id`). */
export type StructuredDataVisit = StructuredDataFixture & { readonly id: string };

/**
 * Seeds the visit before the file's tests (beforeAll) and stops its server and webhook receiver after them
 * (afterAll). The fixture returned is read in tests and hooks, once beforeAll has seeded it (`f.dr`, `f.id`);
 * reading it before then throws.
 */
export function useStructuredDataVisit(): StructuredDataVisit {
  let seeded: StructuredDataVisit | undefined;
  beforeAll(async () => {
    const f = await seedStructuredDataVisit();
    seeded = { ...f, id: f.visit.ambient_session_id };
  }, 300_000);
  afterAll(async () => {
    await seeded?.server.stop();
    await seeded?.receiver.close();
  });
  return new Proxy({} as StructuredDataVisit, {
    get(_target, key) {
      if (seeded) return seeded[key as keyof StructuredDataVisit];
      // Only a field read too early throws: an inspection (a symbol, or `then` of an await) finds nothing.
      if (typeof key === 'symbol' || key === 'then') return undefined;
      throw new Error(`the structured-data visit is seeded in beforeAll: read ${key} in a test or hook`);
    },
  });
}

/** Each kind's edit routes (add, change and remove), by the path segment that names the kind. */
export const sdRoutes = {
  diagnoses: { add: addDiagnosis, update: updateDiagnosis, remove: removeDiagnosis },
  'medication-orders': { add: addMedicationOrder, update: updateMedicationOrder, remove: removeMedicationOrder },
  allergies: { add: addAllergy, update: updateAllergy, remove: removeAllergy },
  'service-orders': { add: addServiceOrder, update: updateServiceOrder, remove: removeServiceOrder },
} as const;

/** The parameters of a change by position: the item, and the version of the data it is made on (none: refused). */
export const sdItem = (sessionId: string, position: number, version?: string) => ({ params: { ambient_session_id: sessionId, position }, query: { version } });
