import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Bundle, Composition, Condition, DocumentReference, Media, MedicationRequest, Provenance, QuestionnaireResponse, Resource } from '@medplum/fhirtypes';
import { openTestDatabase, type TestServer } from '../../test/harness';
import { type TestProvider } from '../../test/partners';
import { call, createSession } from '../../test/session-api';
import { testApi } from '../../test/api-client';
import { exportAdminSessionFhir, exportEncounterFhir, exportSessionFhir } from '@/lib/contracts/routes/fhir';
import { updateNoteSection } from '@/lib/contracts/routes/app';
import { rewriteSelection } from '@/lib/contracts/routes/rewrite';
import { amendNote, signNote, updatePatientIdentity } from '@/lib/contracts/routes/workflow';
import { getCkgTransaction, ingestCkgBundle } from '@/lib/contracts/routes/ckg';
import { getSessionContent, listRecordings, setSessionContext } from '@/lib/contracts/routes/sessions';
import { getOpenApiDocument } from '@/lib/contracts/routes/meta';
import { errorsOf, HPI, MRN, ofType, resources, ROUND_TRIP_MRN, seedFhirExport, type FhirExportFixture } from '../../test/fhir-export-fixture';
import { ambientSessions, patientContext } from '../../db/schema';
import { FsBlobStore, recordingBlobKey } from '../../blob';
import { applyRewrite } from '@/components/clinician/note/apply-rewrite';
import { findUnresolvedReferences } from './find-unresolved-references';

/** The export over a real server, on the data of server/test/fhir-export-fixture.ts; the clinician's edit and rewrite go through the API the web app uses. */
describe('FHIR R4 export on a live server', () => {
  let server: TestServer;
  let dr: TestProvider;
  let colleague: TestProvider;
  let outsider: TestProvider;
  let first: FhirExportFixture['first'];
  let pending: FhirExportFixture['pending'];
  let recordingId: string;
  let probeId: string;
  let exported: Bundle;

  beforeAll(async () => {
    ({ server, dr, colleague, outsider, first, pending, recordingId, probeId } = await seedFhirExport());
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("carries the clinician's edits and rewrites made through the web app's API", async () => {
    const id = first.ambient_session_id;
    const edit = await call(server, dr, updateNoteSection, { params: { ambient_session_id: id, loinc: '10164-2' }, body: { content: HPI } });
    expect(edit.status, edit.text).toBe(200);
    // A rewrite is written back the way the visit page does it: apply the returned text at its offsets, then save.
    const plan = 'Type 2 diabetes, stable. Continue metformin.';
    const sel = { selection_start: 0, selection_end: 'Type 2 diabetes, stable.'.length, selected_text: 'Type 2 diabetes, stable.' };
    const rw = await call(server, dr, rewriteSelection, { body: { ...sel, context_after: plan.slice(sel.selection_end), instruction: 'VERBOSE', ambient_session_id: id, loinc_code: '51847-2' } });
    expect(rw.status, rw.text).toBe(200);
    const written = applyRewrite(plan, sel, rw.body);
    expect(written.ok).toBe(true);
    const rewritten = (written as { content: string }).content;
    expect((await call(server, dr, updateNoteSection, { params: { ambient_session_id: id, loinc: '51847-2' }, body: { content: rewritten } })).status).toBe(200);

    const r = await call(server, dr, exportSessionFhir, { params: { ambient_session_id: id } });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    exported = r.body as Bundle;
    const composition = exported.entry![0]!.resource as Composition;
    const hpi = composition.section!.find((s) => s.code!.coding![0]!.code === '10164-2')!;
    expect(hpi.text!.div).toBe(`<div xmlns="http://www.w3.org/1999/xhtml"><p>${HPI}</p></div>`);
    const ap = composition.section!.find((s) => s.code!.coding![0]!.code === '51847-2')!;
    expect(ap.text!.div).toContain(rw.body.rewritten_text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
    const doc = ofType<DocumentReference>(exported, 'DocumentReference')[0]!;
    const plain = Buffer.from(doc.content[0]!.attachment.data!, 'base64').toString('utf8');
    expect(plain).toContain(`History of present illness\n${HPI}`);
    expect(plain).toContain(rewritten);
  });

  it('validates every resource against FHIR R4 with no errors, and every reference resolves inside the Bundle', () => {
    expect(exported.resourceType).toBe('Bundle');
    expect(exported.type).toBe('document');
    expect(errorsOf(exported)).toEqual([]);
    for (const e of exported.entry!) expect(errorsOf(e.resource!), e.fullUrl).toEqual([]);
    expect(findUnresolvedReferences(exported)).toEqual([]);
    expect(resources(exported).map((r) => r.resourceType)).toEqual([
      'Composition', 'Patient', 'Encounter', 'Practitioner', 'Device', 'Condition', 'Condition', 'MedicationRequest', 'MedicationRequest',
      'QuestionnaireResponse', 'DocumentReference', 'Media', 'Provenance',
    ]);
  }, 120_000);

  it('holds the coded content: diagnoses, orders with dosage, form values, identifiers and provenance', () => {
    const composition = exported.entry![0]!.resource as Composition;
    expect(composition.id).toBe(first.note_id);
    expect(composition.status).toBe('preliminary');
    expect(composition.type.coding![0]).toEqual({ system: 'http://loinc.org', code: '11506-3', display: 'Progress note' });
    expect(composition.section!.map((s) => s.code!.coding![0]!.code)).toEqual(['10154-3', '10164-2', '51847-2', '10160-0', '10190-7']);

    const [dm, htn] = ofType<Condition>(exported, 'Condition');
    expect(dm!.code!.coding).toEqual([
      { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
      { system: 'http://terminology.hl7.org/CodeSystem/cmshcc', version: '28', code: '38', display: 'Diabetes with Glycemic, Unspecified, or No Complications' },
    ]);
    expect(htn!.code!.coding!.map((c) => c.code)).toEqual(['I10']);

    const [metformin, lisinopril] = ofType<MedicationRequest>(exported, 'MedicationRequest');
    expect(metformin).toMatchObject({
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '6809' }] },
      reasonReference: [{ reference: `Condition/${dm!.id}` }],
      dispenseRequest: { numberOfRepeatsAllowed: 3 },
    });
    expect(metformin!.dosageInstruction![0]).toMatchObject({
      doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd', when: ['C'] } },
      patientInstruction: 'Take with breakfast and dinner.',
    });
    expect(lisinopril!.status).toBe('stopped');

    const form = ofType<QuestionnaireResponse>(exported, 'QuestionnaireResponse')[0]!;
    expect(form.questionnaire).toBe(`${server.baseUrl}/fhir/Questionnaire/phq-2`);
    expect(form.item!.map((i) => [i.linkId, i.answer![0]])).toEqual([
      ['date_administered', { valueDate: '2026-11-20' }],
      ['interest', { valueString: 'Not at all' }],
      ['depressed', { valueString: 'Several days' }],
    ]);

    const patient = resources(exported).find((r) => r.resourceType === 'Patient') as import('@medplum/fhirtypes').Patient;
    expect(patient).toMatchObject({ identifier: [{ value: MRN }], gender: 'female', birthDate: '1958-03-14' });
    const encounter = resources(exported).find((r) => r.resourceType === 'Encounter') as import('@medplum/fhirtypes').Encounter;
    expect(encounter.identifier!.map((i) => i.value)).toEqual(['EMR-ENC-42', `urn:uuid:${first.encounter_id}`]);
    expect(encounter.class.code).toBe('AMB');

    // The reconnect probe stored as part 2 is no Media, and the recording's period is its 3 s of audio.
    const prov = ofType<Provenance>(exported, 'Provenance')[0]!;
    expect(prov.entity).toEqual([{ role: 'source', what: { reference: `Media/${recordingId}` } }]);
    expect(ofType<Media>(exported, 'Media').map((m) => [m.id, m.createdPeriod, m.duration])).toEqual([
      [recordingId, { start: '2026-11-20T10:00:00.000Z', end: '2026-11-20T10:00:03.000Z' }, 3],
    ]);
    const device = resources(exported).find((r) => r.resourceType === 'Device') as import('@medplum/fhirtypes').Device;
    expect(prov.agent[0]!.who).toEqual({ reference: `Device/${device.id}` });
    expect(device.deviceName!.map((d) => d.name)).toEqual(['Ambient clinical documentation service', 'embedded notes engine']);
    expect(device.version![0]!.value).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists only the recording with audio of its own; the probe stays stored', async () => {
    const list = await call(server, dr, listRecordings, { params: { ambient_session_id: first.ambient_session_id } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.recordings.map((r: { recording_id: string; sequence_number: number }) => [r.recording_id, r.sequence_number])).toEqual([[recordingId, 1]]);
    const blobs = new FsBlobStore(path.join(server.dataDir, 'audio'));
    try {
      expect(await blobs.size(recordingBlobKey(first.ambient_session_id, 2, probeId))).toBe(32);
    } finally {
      await blobs.close();
    }
  });

  it('answers _format=ndjson with one resource per line, and refuses an unknown _format', async () => {
    const r = await call(server, dr, exportSessionFhir, { params: { ambient_session_id: first.ambient_session_id }, query: { _format: 'ndjson' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/fhir\+ndjson/);
    const lines = r.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Resource);
    expect(lines).toEqual(resources(exported));
    const bad = await call(server, dr, exportSessionFhir, { params: { ambient_session_id: first.ambient_session_id }, query: { _format: 'xml' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/_format/) } });
  });

  it('exports the encounter over its completed sessions', async () => {
    const r = await call(server, dr, exportEncounterFhir, { params: { encounter_id: first.encounter_id } });
    expect(r.status, r.text).toBe(200);
    const b = r.body as Bundle;
    expect(errorsOf(b)).toEqual([]);
    expect(findUnresolvedReferences(b)).toEqual([]);
    expect(ofType<Condition>(b, 'Condition').map((c) => c.code!.coding![0]!.code)).toEqual(['E11.9', 'I10', 'M25.561']);
    const hpi = (b.entry![0]!.resource as Composition).section!.find((s) => s.code!.coding![0]!.code === '10164-2')!;
    expect(hpi.text!.div).toContain('Also mentions knee pain.');
    expect(hpi.text!.div).toContain('She walks daily');
  }, 60_000);

  it("answers 404 for another partner's or provider's session and encounter, 409 before a terminal state", async () => {
    for (const who of [outsider, colleague]) {
      expect((await call(server, who, exportSessionFhir, { params: { ambient_session_id: first.ambient_session_id } })).status).toBe(404);
      expect((await call(server, who, exportEncounterFhir, { params: { encounter_id: first.encounter_id } })).status).toBe(404);
    }
    // The content route's rule: nothing before a terminal state.
    expect((await call(server, dr, getSessionContent, { params: { ambient_session_id: pending.ambient_session_id } })).status).toBe(409);
    const early = await call(server, dr, exportSessionFhir, { params: { ambient_session_id: pending.ambient_session_id } });
    expect(early).toMatchObject({ status: 409, body: { code: 409, message: expect.stringMatching(/session is created/) } });
    const encounter = await call(server, dr, exportEncounterFhir, { params: { encounter_id: pending.encounter_id } });
    expect(encounter).toMatchObject({ status: 409, body: { code: 409, message: expect.stringMatching(/is created/) } });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await testApi(server).call(getOpenApiDocument)).body as { paths: Record<string, any> };
    for (const p of ['/api/v1/ambient/session/{ambient_session_id}/fhir', '/api/v1/ambient/encounter/{encounter_id}/fhir']) {
      const get = doc.paths[p]?.get;
      expect(get, p).toBeDefined();
      expect(Object.keys(get.responses[200].content)).toEqual(['application/fhir+json']);
      expect(get.parameters.map((x: { name: string }) => x.name)).toContain('_format');
      expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409']);
    }
  });

  it('shows the same document to the admin console, scoped like the session detail', async () => {
    const admin = testApi(server, 'admin');
    const r = await admin.call(exportAdminSessionFhir, { params: { id: first.ambient_session_id } });
    expect(r.status).toBe(200);
    const b = r.body as Bundle;
    expect(b.entry!.map((e) => e.fullUrl)).toEqual(exported.entry!.map((e) => e.fullUrl));
    expect((await admin.call(exportAdminSessionFhir, { params: { id: crypto.randomUUID() } })).status).toBe(404);
  });

  it("reports sign-off (signed: final with the clinician as attester; amended: amended) and the visit's patient name and MRN", async () => {
    const id = first.ambient_session_id;
    const ident = await call(server, dr, updatePatientIdentity, { params: { ambient_session_id: id }, body: { name: 'Ada Lovelace', mrn: 'MRN-0042' } });
    expect(ident.status, ident.text).toBe(200);
    const sign = await call(server, dr, signNote, { params: { ambient_session_id: id } });
    expect(sign.status, sign.text).toBe(200);
    const signed = (await call(server, dr, exportSessionFhir, { params: { ambient_session_id: id } })).body as Bundle;
    expect(errorsOf(signed)).toEqual([]);
    const c = signed.entry![0]!.resource as Composition;
    const practitioner = resources(signed).find((r) => r.resourceType === 'Practitioner')!;
    expect(c.status).toBe('final');
    expect(c.attester).toEqual([{ mode: 'legal', time: expect.any(String), party: { reference: `Practitioner/${practitioner.id}` } }]);
    expect(ofType<DocumentReference>(signed, 'DocumentReference')[0]!.docStatus).toBe('final');
    expect(ofType<Provenance>(signed, 'Provenance')[0]!.agent.map((a) => a.type!.coding![0]!.code)).toEqual(['author', 'attester']);
    const patient = resources(signed).find((r) => r.resourceType === 'Patient') as import('@medplum/fhirtypes').Patient;
    expect(patient.name).toEqual([{ text: 'Ada Lovelace' }]);
    expect(patient.identifier!.map((i) => [i.value, i.type?.coding?.[0]?.code])).toEqual([[MRN, undefined], ['MRN-0042', 'MR']]);

    const amend = await call(server, dr, amendNote, { params: { ambient_session_id: id }, body: { reason: 'Dose clarified' } });
    expect(amend.status, amend.text).toBe(200);
    const amended = (await call(server, dr, exportSessionFhir, { params: { ambient_session_id: id } })).body as Bundle;
    expect((amended.entry![0]!.resource as Composition).status).toBe('amended');
    expect(errorsOf(amended)).toEqual([]);
  }, 60_000);

  it('round trip: the Bundle posted to CKG ingestion becomes the EMR context another session validates orders against', async () => {
    const ingest = await call(server, dr, ingestCkgBundle, { body: { emr_patient_id: ROUND_TRIP_MRN, bundle: exported } as never });
    expect(ingest.status, ingest.text).toBe(202);
    let state = '';
    for (let i = 0; i < 300 && !['COMPLETED', 'FAILED', 'ABORTED'].includes(state); i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await call(server, dr, getCkgTransaction, { params: { transaction_id: ingest.body.transaction_id } })).body.state;
    }
    expect(state).toBe('COMPLETED');

    const { ambient_session_id: next } = await createSession(server, dr);
    const withOrders = (...values: unknown[]) => ({ patient: { emr_patient_id: ROUND_TRIP_MRN }, orders: { medication_orders: { values } } });
    // Metformin was exported active: it can be refilled. Lisinopril was stopped: it cannot be discontinued again.
    const ok = await call(server, dr, setSessionContext, { params: { ambient_session_id: next }, body: withOrders({ drug_name: 'metformin', status: 'REFILLED' }, { drug_name: 'Metformin', status: 'DISCONTINUED', medication_code: { code: '6809', type: 'RXCUI' } }) as never });
    expect(ok.status, ok.text).toBe(200);
    const stopped = await call(server, dr, setSessionContext, { params: { ambient_session_id: next }, body: withOrders({ drug_name: 'lisinopril', status: 'DISCONTINUED' }) as never });
    expect(stopped).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^orders\.medication_orders\.values\[0\]: lisinopril is not an active medication/) } });

    // The patient's EMR context now holds the exported diagnoses and medications.
    await server.stop();
    const database = await openTestDatabase(server.dataDir);
    try {
      const [partnerRow] = await database.db.select({ partnerId: ambientSessions.partnerId }).from(ambientSessions).where(eq(ambientSessions.id, next));
      const [row] = await database.db.select().from(patientContext).where(eq(patientContext.emrPatientId, ROUND_TRIP_MRN));
      expect(row!.partnerId).toBe(partnerRow!.partnerId);
      const problems = row!.problems as Array<{ icd10: string; active: boolean }>;
      expect(problems.map((p) => [p.icd10, p.active])).toEqual([['E11.9', true], ['I10', true]]);
      const meds = row!.medications as Array<{ rxcui: string; active: boolean; dosage_text: string | null }>;
      expect(meds.map((m) => [m.rxcui, m.active])).toEqual([['6809', true], ['29046', false]]);
      expect(meds[0]!.dosage_text).toBe('500 mg oral twice a day with meals for 90 days');
    } finally {
      await database.close();
    }
  }, 120_000);
});
