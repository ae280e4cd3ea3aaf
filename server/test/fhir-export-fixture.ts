/**
 * The FHIR export suite's server and data. A completed session's note (diagnoses, medication orders, form
 * values) is seeded into the database while the server is stopped (PGlite admits one process per data
 * directory), as server/api/sessions-seeded.int.test.ts does; a second completed session shares its
 * encounter, a third is still created. The server runs with FHIR_VALIDATE=true, so its own assertion runs too.
 */
import path from 'node:path';
import { expect } from 'vitest';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { openTestDatabase, startServer } from './harness';
import { createTestPartner, registerAndLogin } from './partners';
import { call, createSession } from './session-api';
import { setSessionContext } from '@/lib/contracts/routes/sessions';
import { recordings, sessionContent } from '../db/schema';
import { FsBlobStore, recordingBlobKey } from '../blob';
import { transitionSession } from '../domain/sessions/transition-session';
import { validateFhirResource } from '../domain/fhir/validate-fhir-resource';

export const MRN = `PT-${crypto.randomUUID().slice(0, 8)}`;
export const ROUND_TRIP_MRN = `RT-${crypto.randomUUID().slice(0, 8)}`;
export const HPI = 'Patient reports fasting sugars between 120 and 140. She walks daily and has no episodes of low blood sugar.';

export const resources = (b: Bundle) => (b.entry ?? []).map((e) => e.resource as Resource);
export const ofType = <T extends Resource>(b: Bundle, type: T['resourceType']) => resources(b).filter((r): r is T => r.resourceType === type);
export const errorsOf = (r: Resource) =>
  validateFhirResource(r)
    .filter((i) => i.severity === 'error' || i.severity === 'fatal')
    .map((i) => `${i.expression?.join(',')}: ${i.details?.text}`);

export function order(drug_name: string, code: string, status: string, over: Record<string, unknown> = {}) {
  return {
    drug_name,
    medication_code: { code, type: 'RXCUI' },
    status,
    dosage: { quantity: 500, unit: 'MG', raw_value: '500 mg' },
    frequency: { raw_value: 'twice a day', structured_value: 'TWO_A_DAY' },
    medication_timing: 'WITH_MEALS',
    route: 'oral',
    duration_in_days: 90,
    number_of_refills: 3,
    instructions: 'Take with breakfast and dinner.',
    metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: ['E11.9'],
    ...over,
  };
}

export type FhirExportFixture = Awaited<ReturnType<typeof seedFhirExport>>;

export async function seedFhirExport() {
  let server = await startServer({ env: { FHIR_VALIDATE: 'true' } });
  const partner = await createTestPartner(server.baseUrl);
  const dr = await registerAndLogin(server.baseUrl, partner);
  const colleague = await registerAndLogin(server.baseUrl, partner);
  const outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  const first = await createSession(server, dr, { emr_encounter_id: 'EMR-ENC-42' });
  const context = {
    patient: { emr_patient_id: MRN, dob: '1958-03-14', sex: 'female' },
    provider: { specialty: 'FAMILY_MEDICINE', provider_role: 'ATTENDING' },
    visit: { chief_complaint: 'Diabetes follow-up', visit_type: 'FOLLOW_UP', encounter_type: 'AMBULATORY' },
  };
  expect((await call(server, dr, setSessionContext, { params: { ambient_session_id: first.ambient_session_id }, body: context })).status).toBe(200);
  const second = (await createSession(server, dr, { encounter_id: first.encounter_id })).ambient_session_id;
  const pending = await createSession(server, dr);
  await server.stop();

  const database = await openTestDatabase(server.dataDir);
  const db = database.db;
  const recordingId = crypto.randomUUID();
  // 3 s in which no two 1 ms windows are alike, so the probe below is the stored audio at one place only.
  const pcm = Buffer.alloc(16_000 * 2 * 3);
  for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(((i * 7919) % 65_536) - 32_768, i * 2);
  const blobs = new FsBlobStore(path.join(server.dataDir, 'audio'));
  const key = recordingBlobKey(first.ambient_session_id, 1, recordingId);
  await blobs.append(key, pcm);
  // A reloaded page's reconnect probe, as a browser trial stored it: 1 ms of the audio 200 ms before the end, dated
  // there, and nothing after it (the server held what the page still kept). It is no recording to list or export.
  const probeId = crypto.randomUUID();
  const probeKey = recordingBlobKey(first.ambient_session_id, 2, probeId);
  await blobs.append(probeKey, pcm.subarray(2_800 * 32, 2_801 * 32));
  await blobs.close();
  await db.insert(recordings).values([
    {
      id: recordingId,
      sessionId: first.ambient_session_id,
      sequenceNumber: 1,
      blobKey: key,
      startTime: new Date('2026-11-20T10:00:00.000Z'),
      // The dropped connection was noticed 170 ms after its last sample: not where the audio ends.
      endedAt: new Date('2026-11-20T10:00:03.170Z'),
      durableBytes: pcm.length,
    },
    {
      id: probeId,
      sessionId: first.ambient_session_id,
      sequenceNumber: 2,
      blobKey: probeKey,
      startTime: new Date('2026-11-20T10:00:02.800Z'),
      sessionOffsetMs: 3_000,
      endedAt: new Date('2026-11-20T10:00:04.347Z'),
      durableBytes: 32,
    },
  ]);
  const diagnosis = (code: string, description: string, hcc?: [string, string]) => ({
    codes: [{ code, description, type: 'ICD10' }, ...(hcc ? [{ code: hcc[0], description: hcc[1], type: 'HCC' }] : [])],
    diagnosis_note: `${description}.`,
  });
  await db.insert(sessionContent).values([
    {
      sessionId: first.ambient_session_id,
      engine: 'embedded',
      summary: [
        { title: 'Chief complaint', content: 'Diabetes follow-up.', loinc_code: '10154-3', source_transcripts: [] },
        { title: 'History of present illness', content: 'Fasting sugars 120s.', loinc_code: '10164-2', source_transcripts: [] },
        { title: 'Assessment and plan', content: 'Type 2 diabetes, stable. Continue metformin.', loinc_code: '51847-2', source_transcripts: [] },
        { title: 'Medications', content: 'Metformin 500 mg twice a day. Lisinopril stopped.', loinc_code: '10160-0', source_transcripts: [] },
      ],
      structuredData: {
        diagnoses: {
          values: [
            diagnosis('E11.9', 'Type 2 diabetes mellitus without complications', ['HCC38', 'Diabetes with Glycemic, Unspecified, or No Complications']),
            diagnosis('I10', 'Essential (primary) hypertension'),
          ],
        },
        orders: {
          medication_orders: {
            values: [
              order('metformin', '6809', 'CONTINUED'),
              order('lisinopril', '29046', 'DISCONTINUED', { dosage: { quantity: 10, unit: 'MG', raw_value: '10 mg' }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' }, medication_timing: null, linked_diagnosis_codes: ['I10'] }),
            ],
            partial_values: [],
          },
        },
        section_structured_values: [
          { loinc: '10190-7', template_id: 'phq-2', values: [{ id: 'date_administered', value: '2026-11-20' }, { id: 'interest', value: 'Not at all' }, { id: 'depressed', value: 'Several days' }] },
        ],
      },
    },
    {
      sessionId: second,
      engine: 'embedded',
      summary: [{ title: 'History of present illness', content: 'Also mentions knee pain.', loinc_code: '10164-2', source_transcripts: [] }],
      structuredData: {
        diagnoses: { values: [diagnosis('M25.561', 'Pain in right knee')] },
        orders: { medication_orders: { values: [], partial_values: [] } },
        section_structured_values: [],
      },
    },
  ]);
  for (const id of [first.ambient_session_id, second]) for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, id, to);
  await database.close();
  server = await startServer({ dataDir: server.dataDir, env: { FHIR_VALIDATE: 'true' } });
  return { server, partner, dr, colleague, outsider, first, second, pending, recordingId, probeId };
}
