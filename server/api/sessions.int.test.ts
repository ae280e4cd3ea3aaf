import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openTestDatabase, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { ambientSessions, patientContext, recordings, sessionContent, transcriptEntries } from '../db/schema';
import { FsBlobStore, recordingBlobKey } from '../blob';
import { transitionSession } from '../domain/sessions/transition-session';
import { signRecording } from '../domain/sessions/recording-url';
import { wavHeader } from '../domain/sessions/wav';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function call(server: TestServer, who: TestProvider | Record<string, string>, method: string, p: string, body?: unknown) {
  const headers = 'headers' in who ? (who as TestProvider).headers : (who as Record<string, string>);
  const res = await fetch(`${server.baseUrl}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, headers: res.headers };
}

async function createSession(server: TestServer, who: TestProvider, body: unknown = {}) {
  const r = await call(server, who, 'POST', '/api/v1/ambient/session/create', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { ambient_session_id: string; note_id: string; encounter_id: string };
}

const S = (id: string) => `/api/v1/ambient/session/${id}`;

describe('session API on a live server', () => {
  let server: TestServer;
  let partner: TestPartner;
  let dr: TestProvider;
  let colleague: TestProvider;
  let outsider: TestProvider;

  beforeAll(async () => {
    server = await startServer();
    partner = await createTestPartner(server.baseUrl);
    dr = await registerAndLogin(server.baseUrl, partner);
    colleague = await registerAndLogin(server.baseUrl, partner);
    outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates sessions: 201 shape, caller ids, encounter grouping, duplicate 409', async () => {
    const a = await createSession(server, dr);
    expect(a.ambient_session_id).toMatch(UUID);
    expect(a.note_id).toMatch(UUID);
    expect(a.encounter_id).toMatch(UUID);
    expect(new Set([a.ambient_session_id, a.note_id, a.encounter_id]).size).toBe(3);

    const chosen = crypto.randomUUID();
    const b = await createSession(server, dr, { ambient_session_id: chosen, encounter_id: a.encounter_id, emr_encounter_id: 'ENC-77', multilingual: true });
    expect(b.ambient_session_id).toBe(chosen);
    expect(b.encounter_id).toBe(a.encounter_id);

    const legacyGroup = crypto.randomUUID();
    const c = await createSession(server, dr, { session_group_id: legacyGroup });
    expect(c.encounter_id).toBe(legacyGroup);

    const dup = await call(server, dr, 'POST', '/api/v1/ambient/session/create', { ambient_session_id: chosen });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 409, message: expect.stringMatching(/already exists/) });

    // Another partner reusing the id learns only that it is taken.
    const foreign = await call(server, outsider, 'POST', '/api/v1/ambient/session/create', { ambient_session_id: chosen });
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toBe(dup.body.message);

    const bad = await call(server, dr, 'POST', '/api/v1/ambient/session/create', { encounter_id: 'visit-1' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: 'encounter_id: must be a UUID' });

    const st = await call(server, dr, 'GET', `${S(chosen)}/status`);
    expect(st).toMatchObject({ status: 200, body: { status: 'created' } });
  });

  it('replaces and merges context, naming bad fields', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const initial = {
      patient: { dob: '1961-07-04', sex: 'female' },
      provider: { specialty: 'INTERNAL_MEDICINE', provider_role: 'ATTENDING' },
      visit: { chief_complaint: 'shortness of breath', visit_type: 'ESTABLISHED_PATIENT', encounter_type: 'AMBULATORY' },
      sections: [{ loinc: '10164-2' }, { loinc: '51847-2', precharted_content: [{ type: 'string', content: 'COPD, on tiotropium.' }] }],
      diagnoses: { values: [{ codes: [{ code: 'J44.9', description: 'COPD', type: 'ICD10' }] }] },
    };
    const post = await call(server, dr, 'POST', `${S(id)}/context`, initial);
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    expect(post.body).toEqual({ context: initial });

    const patch = await call(server, dr, 'PATCH', `${S(id)}/context`, {
      patient: { sex: 'other' },
      visit: { chief_complaint: 'cough' },
      sections: [{ loinc: '10187-3' }],
      diagnoses: null,
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect(patch.body.context).toEqual({
      patient: { dob: '1961-07-04', sex: 'other' },
      provider: initial.provider,
      visit: { chief_complaint: 'cough', visit_type: 'ESTABLISHED_PATIENT', encounter_type: 'AMBULATORY' },
      sections: [{ loinc: '10187-3' }],
    });
    expect((await call(server, dr, 'GET', `${S(id)}/context`)).body).toEqual(patch.body);

    // POST replaces: members not sent are gone.
    const replaced = await call(server, dr, 'POST', `${S(id)}/context`, { visit: { chief_complaint: 'wheeze' } });
    expect(replaced.body).toEqual({ context: { visit: { chief_complaint: 'wheeze' } } });

    const snomed = await call(server, dr, 'POST', `${S(id)}/context`, { diagnoses: { values: [{ codes: [{ code: '13645005', description: 'COPD', type: 'SNOMED' }] }] } });
    expect(snomed.status).toBe(400);
    expect(snomed.body.message).toMatch(/^diagnoses\.values\[0\]\.codes\[0\]\.type: SNOMED is no longer supported/);

    const loinc = await call(server, dr, 'PATCH', `${S(id)}/context`, { sections: [{ loinc: '99999-9' }] });
    expect(loinc.status).toBe(400);
    expect(loinc.body.message).toMatch(/^sections\[0\]\.loinc: not a supported LOINC section code/);

    const long = await call(server, dr, 'POST', `${S(id)}/context`, { visit: { chief_complaint: 'x'.repeat(256) } });
    expect(long).toMatchObject({ status: 400, body: { code: 400, message: 'visit.chief_complaint: must be at most 255 characters' } });

    const form = await call(server, dr, 'POST', `${S(id)}/context`, {
      sections: [{ loinc: '10190-7', precharted_content: [{ type: 'structured', template_id: 'phq-2', values: [{ id: 'interest', value: 'Always' }] }] }],
    });
    expect(form.status).toBe(400);
    expect(form.body.message).toMatch(/^sections\[0\]\.precharted_content\[0\]\.values\[0\]\.value: must be one of/);

    const noEmr = await call(server, dr, 'POST', `${S(id)}/context`, {
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }] } },
    });
    expect(noEmr.status).toBe(400);
    expect(noEmr.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: lisinopril cannot be DISCONTINUED/);

    // Failed writes left the context as it was.
    expect((await call(server, dr, 'GET', `${S(id)}/context`)).body).toEqual({ context: { visit: { chief_complaint: 'wheeze' } } });
  });

  it('maps deprecated metadata onto the context', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const r = await fetch(`${server.baseUrl}${S(id)}/metadata`, {
      method: 'POST',
      headers: dr.headers,
      body: JSON.stringify({
        note_sections: [{ title: 'History of Present Illness', description: 'what happened' }, { title: 'Assessment & Plan' }, { title: 'Doodles' }],
        patient_dob: '1990-05-06',
        patient_sex: 'male',
        provider_specialty: 'CARDIOLOGY',
      }),
    });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const ctx = await call(server, dr, 'GET', `${S(id)}/context`);
    expect(ctx.body.context).toEqual({
      patient: { dob: '1990-05-06', sex: 'male' },
      provider: { specialty: 'CARDIOLOGY' },
      sections: [{ loinc: '10164-2' }, { loinc: '51847-2' }],
    });
    const bad = await call(server, dr, 'POST', `${S(id)}/metadata`, { patient_dob: '1990-02-30' });
    expect(bad).toMatchObject({ status: 400, body: { message: 'patient_dob: must be a valid date written YYYY-MM-DD' } });
  });

  it("answers 404 for another provider's or partner's session, for every verb", async () => {
    const { ambient_session_id: id, encounter_id } = await createSession(server, dr);
    for (const who of [colleague, outsider]) {
      for (const [method, suffix, body] of [
        ['GET', '/status'],
        ['GET', '/transcript'],
        ['GET', '/content'],
        ['GET', '/structured-data'],
        ['GET', '/recording'],
        ['GET', '/context'],
        ['POST', '/context', { visit: { chief_complaint: 'x' } }],
        ['PATCH', '/context', { visit: { chief_complaint: 'x' } }],
        ['POST', '/metadata', { patient_sex: 'male' }],
        ['POST', '/end'],
      ] as Array<[string, string, unknown?]>) {
        const r = await call(server, who, method, `${S(id)}${suffix}`, body);
        expect(r.status, `${method} ${suffix}`).toBe(404);
        expect(r.body.code).toBe(404);
      }
      expect((await call(server, who, 'GET', `/api/v1/ambient/content/${id}`)).status).toBe(404);
      expect((await call(server, who, 'GET', `/api/v1/ambient/encounter/${encounter_id}/content`)).status).toBe(404);
      const rw = await call(server, who, 'POST', '/api/v1/content/rewrite', {
        selected_text: 'abc',
        selection_start: 0,
        selection_end: 3,
        instruction: 'CONCISE',
        ambient_session_id: id,
      });
      expect(rw.status).toBe(404);
    }
    // The owner still sees it unchanged.
    expect((await call(server, dr, 'GET', `${S(id)}/status`)).body).toEqual({ status: 'created' });
    expect((await call(server, dr, 'GET', `${S(id)}/context`)).body).toEqual({ context: {} });
  });

  it('ends a session that never streamed and refuses content until it is terminal', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const before = await call(server, dr, 'GET', `${S(id)}/content`);
    expect(before.status).toBe(409);
    expect(before.body.message).toMatch(/session is created/);
    expect((await call(server, dr, 'GET', `/api/v1/ambient/content/${id}`)).status).toBe(409);
    expect((await call(server, dr, 'GET', `${S(id)}/structured-data`)).status).toBe(409);

    const end = await call(server, dr, 'POST', `${S(id)}/end`);
    expect(end).toMatchObject({ status: 200, body: { status: 'running' } });
    const status = (await call(server, dr, 'GET', `${S(id)}/status`)).body.status;
    // The finalisation job may already have marked it skipped (no audio).
    expect(['running', 'skipped']).toContain(status);
    if (status === 'running') {
      const during = await call(server, dr, 'GET', `${S(id)}/content`);
      expect(during.status).toBe(409);
      expect(during.body.message).toMatch(/session is running/);
      // Ending again is harmless.
      expect((await call(server, dr, 'POST', `${S(id)}/end`)).status).toBe(200);
    }
    expect((await call(server, dr, 'GET', `${S(id)}/transcript`)).body).toEqual({ final_transcript: [] });
    expect((await call(server, dr, 'GET', `${S(id)}/recording`)).body).toEqual({ recordings: [], is_streamable: false });
  });

  it('round-trips preferences', async () => {
    const def = await call(server, dr, 'GET', '/api/v1/user/preferences');
    expect(def.body).toEqual({ personalization_preference: { verbosity: 'BALANCED', section_format: [] } });
    const p1 = await call(server, dr, 'PATCH', '/api/v1/user/preferences', {
      personalization_preference: { verbosity: 'CONCISE', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] },
    });
    expect(p1.body).toEqual({ personalization_preference: { verbosity: 'CONCISE', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] } });
    const p2 = await call(server, dr, 'PATCH', '/api/v1/user/preferences', { personalization_preference: { verbosity: 'DETAILED' } });
    expect(p2.body.personalization_preference).toEqual({ verbosity: 'DETAILED', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] });
    expect((await call(server, dr, 'GET', '/api/v1/user/preferences')).body).toEqual(p2.body);
    // Preferences are per provider.
    expect((await call(server, colleague, 'GET', '/api/v1/user/preferences')).body.personalization_preference.verbosity).toBe('BALANCED');
    const bad = await call(server, dr, 'PATCH', '/api/v1/user/preferences', { personalization_preference: { section_format: [{ loinc: '51847-2', style: 'HAIKU' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^personalization_preference\.section_format\[0\]\.style: /);
  });

  it('rewrites a selection and returns its write-back offsets', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const selected = 'The patient states that she has been experiencing a cough that has lasted for approximately three weeks now.';
    const res = await fetch(`${server.baseUrl}/api/v1/content/rewrite`, {
      method: 'POST',
      headers: { ...dr.headers, 'x-request-id': 'rw-test-1' },
      body: JSON.stringify({
        selected_text: selected,
        context_before: 'HPI: ',
        context_after: ' No fever.',
        selection_start: 5,
        selection_end: 5 + selected.length,
        instruction: 'CONCISE',
        ambient_session_id: id,
        loinc_code: '10164-2',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rewritten_text: string; selection_start: number; selection_end: number; request_id: string };
    expect(body.rewritten_text.length).toBeGreaterThan(0);
    expect(body.rewritten_text).toMatch(/cough/i);
    expect(body.selection_start).toBe(5);
    expect(body.selection_end).toBe(5 + body.rewritten_text.length);
    expect(body.request_id).toBe('rw-test-1');

    const off = await call(server, dr, 'POST', '/api/v1/content/rewrite', { selected_text: 'abc', selection_start: 0, selection_end: 4, instruction: 'CONCISE' });
    expect(off.status).toBe(400);
    expect(off.body.message).toMatch(/^selection_end: /);
  });

  it('refuses writes to READONLY partners but allows reads and rewrite', async () => {
    const ro = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const reader = await registerAndLogin(server.baseUrl, ro);
    const create = await call(server, reader, 'POST', '/api/v1/ambient/session/create', {});
    expect(create).toMatchObject({ status: 403, body: { code: 403 } });
    const prefs = await call(server, reader, 'PATCH', '/api/v1/user/preferences', { personalization_preference: { verbosity: 'CONCISE' } });
    expect(prefs.status).toBe(403);
    expect((await call(server, reader, 'GET', '/api/v1/user/preferences')).status).toBe(200);
    const some = crypto.randomUUID();
    expect((await call(server, reader, 'POST', `${S(some)}/context`, {})).status).toBe(403);
    expect((await call(server, reader, 'POST', `${S(some)}/metadata`, {})).status).toBe(403);
    expect((await call(server, reader, 'POST', `${S(some)}/end`)).status).toBe(403);
    expect((await call(server, reader, 'GET', `${S(some)}/status`)).status).toBe(404);
    const rw = await call(server, reader, 'POST', '/api/v1/content/rewrite', { selected_text: 'Patient is feeling a lot better today.', selection_start: 0, selection_end: 38, instruction: 'PATIENT_FRIENDLY' });
    expect(rw.status).toBe(200);
  });

  it('requires sdp_provider_id for BEARER partners', async () => {
    const bearer = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const p = await registerAndLogin(server.baseUrl, bearer, { providerId: 'NPI-424242' });
    const { sdp_provider_id, ...withoutId } = p.headers;
    expect(sdp_provider_id).toBe('NPI-424242');
    const missing = await call(server, withoutId, 'POST', '/api/v1/ambient/session/create', {});
    expect(missing.status).toBe(401);
    expect(missing.body.message).toMatch(/sdp_provider_id/);
    const wrong = await call(server, { ...withoutId, sdp_provider_id: 'NPI-000001' }, 'POST', '/api/v1/ambient/session/create', {});
    expect(wrong.status).toBe(401);
    const s = await createSession(server, p);
    expect((await call(server, p, 'GET', `${S(s.ambient_session_id)}/status`)).body).toEqual({ status: 'created' });
    expect((await call(server, withoutId, 'GET', `${S(s.ambient_session_id)}/status`)).status).toBe(401);
  });

  it("checks DISCONTINUED and REFILLED orders against the medications ingested through CKG", async () => {
    const mrn = `MRN-${crypto.randomUUID().slice(0, 8)}`;
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'MedicationRequest',
            id: 'mr-1',
            status: 'active',
            intent: 'order',
            medicationCodeableConcept: { text: 'Lisinopril 10 MG Oral Tablet', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '314076', display: 'Lisinopril 10 MG Oral Tablet' }] },
            subject: { reference: 'Patient/p1' },
          },
        },
        {
          resource: {
            resourceType: 'MedicationRequest',
            id: 'mr-2',
            status: 'stopped',
            intent: 'order',
            medicationCodeableConcept: { text: 'Simvastatin 20 MG Oral Tablet', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '198211' }] },
            subject: { reference: 'Patient/p1' },
          },
        },
      ],
    };
    const ingest = await call(server, dr, 'POST', '/api/v1/ckg/ingest', { emr_patient_id: mrn, bundle });
    expect(ingest.status, JSON.stringify(ingest.body)).toBe(202);
    let state = '';
    while (!['COMPLETED', 'FAILED', 'ABORTED'].includes(state)) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await call(server, dr, 'GET', `/api/v1/ckg/transactions/${ingest.body.transaction_id}`)).body.state;
    }
    expect(state).toBe('COMPLETED');

    const { ambient_session_id: id } = await createSession(server, dr);
    const order = (drug_name: string, status: string) => ({ drug_name, status });
    const withOrders = (...values: unknown[]) => ({ patient: { emr_patient_id: mrn }, orders: { medication_orders: { values } } });

    const notOn = await call(server, dr, 'POST', `${S(id)}/context`, withOrders(order('amoxicillin', 'NEW'), order('metformin', 'DISCONTINUED')));
    expect(notOn).toMatchObject({
      status: 400,
      body: { code: 400, message: 'orders.medication_orders.values[1]: metformin is not an active medication for this patient, so it cannot be DISCONTINUED' },
    });
    const stopped = await call(server, dr, 'POST', `${S(id)}/context`, withOrders(order('simvastatin', 'REFILLED')));
    expect(stopped.status).toBe(400);
    expect(stopped.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: simvastatin is not an active medication/);

    const ok = await call(server, dr, 'POST', `${S(id)}/context`, withOrders(order('Lisinopril', 'REFILLED'), { ...order('Zestril', 'DISCONTINUED'), medication_code: { code: '314076', type: 'RXCUI' } }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.context.orders.medication_orders.values.map((o: any) => o.status)).toEqual(['REFILLED', 'DISCONTINUED']);

    // A PATCH that changes the patient re-checks the stored orders against the new patient's list.
    const moved = await call(server, dr, 'PATCH', `${S(id)}/context`, { patient: { emr_patient_id: 'MRN-nobody' } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: Lisinopril cannot be REFILLED because no EMR medication list is known/);
  });

  it('validates path parameters', async () => {
    const r = await call(server, dr, 'GET', '/api/v1/ambient/session/not-a-uuid/status');
    expect(r).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/ambient_session_id/) } });
  });
});

/**
 * Until the realtime layer streams audio in this suite, recordings, transcript rows, EMR context and a
 * generated note are written straight into the database and blob store while the server is stopped
 * (PGlite admits one process per data directory), then the server is started again on the same data.
 */
describe('session API over seeded audio, transcript and content', () => {
  let server: TestServer;
  let dataDir: string;
  let dr: TestProvider;
  let other: TestProvider;
  let completedId: string;
  let completedId2: string;
  let readyId: string;
  let encounterId: string;
  let recordingId: string;
  const pcm = Buffer.alloc(16_000 * 2 * 2); // 2 s
  for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin(i / 8)), i * 2);

  beforeAll(async () => {
    server = await startServer();
    dataDir = server.dataDir;
    const partner = await createTestPartner(server.baseUrl);
    dr = await registerAndLogin(server.baseUrl, partner);
    other = await registerAndLogin(server.baseUrl, partner);
    const first = await createSession(server, dr);
    encounterId = first.encounter_id;
    completedId = first.ambient_session_id;
    completedId2 = (await createSession(server, dr, { encounter_id: encounterId })).ambient_session_id;
    readyId = (await createSession(server, dr, { encounter_id: encounterId })).ambient_session_id;
    // Another provider's completed session in the same encounter must not leak into this provider's view.
    const foreign = (await createSession(server, other, { encounter_id: encounterId })).ambient_session_id;
    expect((await call(server, dr, 'POST', `${S(readyId)}/context`, { patient: { emr_patient_id: 'MRN-9' } })).status).toBe(200);
    await server.stop();

    const database = await openTestDatabase(dataDir);
    const db = database.db;
    const [row] = await db.select({ partnerId: ambientSessions.partnerId }).from(ambientSessions).where(eq(ambientSessions.id, completedId));
    await db.insert(patientContext).values({
      partnerId: row!.partnerId,
      emrPatientId: 'MRN-9',
      medications: [{ name: 'Lisinopril 10 MG Oral Tablet', rxcui: '314076', status: 'active' }],
      problems: [],
      allergies: [],
    });
    recordingId = crypto.randomUUID();
    const blobs = new FsBlobStore(path.join(dataDir, 'audio'));
    const key = recordingBlobKey(completedId, 1, recordingId);
    await blobs.append(key, pcm);
    await blobs.close();
    await db.insert(recordings).values({
      id: recordingId,
      sessionId: completedId,
      sequenceNumber: 1,
      blobKey: key,
      startTime: new Date('2026-02-01T10:00:00.123Z'),
      sessionOffsetMs: 0,
      durableBytes: pcm.length,
    });
    await db.insert(transcriptEntries).values([
      { sessionId: completedId, recordingId, position: 0, source: 'live', text: 'live words', speaker: 'UNKNOWN', startOffsetMs: 0, endOffsetMs: 900 },
      { sessionId: completedId, recordingId, position: 0, source: 'final', text: 'What brings you in today?', speaker: 'CLINICIAN', startOffsetMs: 250, endOffsetMs: 1_500 },
      { sessionId: completedId, recordingId, position: 1, source: 'final', text: 'A cough for three weeks.', speaker: 'PATIENT', langId: 'en-US', startOffsetMs: 1_600, endOffsetMs: 3_723_450 },
    ]);
    const order = (qty: number, status: string) => ({
      drug_name: 'benzonatate',
      medication_code: { code: '1012', type: 'RXCUI' },
      status,
      dosage: { quantity: qty, unit: 'MG', raw_value: `${qty} mg` },
      frequency: { raw_value: 'three times a day', structured_value: 'THREE_A_DAY' },
      medication_timing: null,
      route: 'oral',
      duration_in_days: 7,
      number_of_refills: 0,
      instructions: null,
      metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
      linked_diagnosis_codes: ['R05.9'],
    });
    const note = (hpi: string, dx: string[], orders: unknown[]) => ({
      summary: [{ title: 'History of present illness', content: hpi, loinc_code: '10164-2', source_transcripts: [] }],
      structuredData: {
        diagnoses: { values: dx.map((code) => ({ codes: [{ code, description: code, type: 'ICD10' }], diagnosis_note: '' })) },
        orders: { medication_orders: { values: orders, partial_values: [] } },
        section_structured_values: [],
      },
      engine: 'seeded',
    });
    await db.insert(sessionContent).values([
      { sessionId: completedId, ...note('Cough for three weeks.', ['R05.9'], [order(100, 'NEW')]) },
      { sessionId: completedId2, ...note('Cough improving.', ['R05.9', 'J20.9'], [order(100, 'CONTINUED')]) },
      { sessionId: foreign, ...note('Someone else.', ['Z00.00'], []) },
    ]);
    for (const id of [completedId, completedId2, foreign]) {
      for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, id, to);
    }
    await transitionSession(db, readyId, 'ready');
    await database.close();

    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('returns the final transcript with nanosecond wall-clock times and offsets', async () => {
    const r = await call(server, dr, 'GET', `${S(completedId)}/transcript`);
    expect(r.status).toBe(200);
    expect(r.body.final_transcript).toEqual([
      {
        transcript_id: expect.stringMatching(UUID),
        recording_id: recordingId,
        lang_id: 'en-US',
        transcript: 'What brings you in today?',
        start_time: '2026-02-01T10:00:00.373000000Z',
        end_time: '2026-02-01T10:00:01.623000000Z',
        start_offset: { hours: 0, minutes: 0, seconds: 0, nanos: 250_000_000 },
        end_offset: { hours: 0, minutes: 0, seconds: 1, nanos: 500_000_000 },
        speaker: 'CLINICIAN',
      },
      {
        transcript_id: expect.stringMatching(UUID),
        recording_id: recordingId,
        lang_id: 'en-US',
        transcript: 'A cough for three weeks.',
        start_time: '2026-02-01T10:00:01.723000000Z',
        end_time: '2026-02-01T11:02:03.573000000Z',
        start_offset: { hours: 0, minutes: 0, seconds: 1, nanos: 600_000_000 },
        end_offset: { hours: 1, minutes: 2, seconds: 3, nanos: 450_000_000 },
        speaker: 'PATIENT',
      },
    ]);
  });

  it('serves content, structured data and the deprecated alias once completed', async () => {
    const c = await call(server, dr, 'GET', `${S(completedId)}/content`);
    expect(c.status).toBe(200);
    expect(c.body.summary).toEqual([{ title: 'History of present illness', content: 'Cough for three weeks.', loinc_code: '10164-2', source_transcripts: [] }]);
    expect(c.body.structured_data.diagnoses.values[0].codes[0].code).toBe('R05.9');
    expect((await call(server, dr, 'GET', `/api/v1/ambient/content/${completedId}`)).body).toEqual(c.body);
    expect((await call(server, dr, 'GET', `${S(completedId)}/structured-data`)).body).toEqual({ structured_data: c.body.structured_data });
  });

  it('merges the encounter over its completed sessions of this provider', async () => {
    const e = await call(server, dr, 'GET', `/api/v1/ambient/encounter/${encounterId}/content`);
    expect(e.status).toBe(200);
    expect(e.body.summary).toHaveLength(1);
    expect(e.body.summary[0].content).toBe('Cough for three weeks.\n\nCough improving.');
    expect(e.body.structured_data.diagnoses.values.map((d: any) => d.codes[0].code)).toEqual(['R05.9', 'J20.9']);
    expect(e.body.structured_data.orders.medication_orders.values.map((o: any) => o.status)).toEqual(['CONTINUED']);
    const sd = await call(server, dr, 'GET', `/api/v1/ambient/encounter/${encounterId}/structured-data`);
    expect(sd.body).toEqual({ structured_data: e.body.structured_data });
    expect((await call(server, dr, 'GET', `${S(completedId)}/encounter-structured-data`)).body).toEqual(sd.body);
    expect((await call(server, dr, 'GET', `/api/v1/ambient/encounter/${crypto.randomUUID()}/content`)).status).toBe(404);
    // The other provider sees only their own session of the same encounter.
    const theirs = await call(server, other, 'GET', `/api/v1/ambient/encounter/${encounterId}/content`);
    expect(theirs.body.summary.map((s: any) => s.content)).toEqual(['Someone else.']);
  });

  it('refuses context on a terminal session', async () => {
    const r = await call(server, dr, 'PATCH', `${S(completedId)}/context`, { visit: { chief_complaint: 'late' } });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/session is completed/);
    expect((await call(server, dr, 'POST', `${S(completedId)}/end`)).status).toBe(409);
  });

  it("checks medication orders against the patient's EMR medications", async () => {
    const bad = await call(server, dr, 'PATCH', `${S(readyId)}/context`, {
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'REFILLED' }, { drug_name: 'atorvastatin', status: 'DISCONTINUED' }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('orders.medication_orders.values[1]: atorvastatin is not an active medication for this patient, so it cannot be DISCONTINUED');
    const ok = await call(server, dr, 'PATCH', `${S(readyId)}/context`, {
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }, { drug_name: 'atorvastatin', status: 'NEW' }] } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.context.patient).toEqual({ emr_patient_id: 'MRN-9' });
    expect(ok.body.context.orders.medication_orders.values).toHaveLength(2);
  });

  it('lists recordings with signed URLs and serves WAV with Range', async () => {
    const list = await call(server, dr, 'GET', `${S(completedId)}/recording?download=true`);
    expect(list.status).toBe(200);
    expect(list.body.is_streamable).toBe(false);
    expect(list.body.recordings).toHaveLength(1);
    const rec = list.body.recordings[0];
    expect(rec).toMatchObject({ recording_id: recordingId, sequence_number: 1 });
    expect(Date.parse(rec.expires_at)).toBeGreaterThan(Date.now());
    const url = new URL(rec.presigned_url);
    expect(url.origin).toBe(server.baseUrl);

    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('audio/wav');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-disposition')).toMatch(/^attachment/);
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(bytes.length).toBe(44 + pcm.length);
    expect(bytes.subarray(0, 44)).toEqual(wavHeader(pcm.length));
    expect(bytes.subarray(44)).toEqual(pcm);

    const part = await fetch(url, { headers: { range: 'bytes=40-59' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 40-59/${44 + pcm.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(40, 60));

    const tail = await fetch(url, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 100));

    const beyond = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const inline = await call(server, dr, 'GET', `${S(completedId)}/recording?download=false`);
    const inlineRes = await fetch(inline.body.recordings[0].presigned_url);
    expect(inlineRes.status).toBe(200);
    expect(inlineRes.headers.get('content-disposition')).toBe('inline');
    await inlineRes.arrayBuffer();

    // A ready session is still capturing audio.
    expect((await call(server, dr, 'GET', `${S(readyId)}/recording`)).body).toEqual({ recordings: [], is_streamable: true });
  });

  it('refuses tampered and expired recording URLs', async () => {
    const list = await call(server, dr, 'GET', `${S(completedId)}/recording?download=false`);
    const url = new URL(list.body.recordings[0].presigned_url);
    const variants: Array<(u: URL) => void> = [
      (u) => u.searchParams.set('sig', u.searchParams.get('sig')!.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))),
      (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u) => u.searchParams.set('download', '1'),
      (u) => u.searchParams.delete('sig'),
      (u) => (u.pathname = u.pathname.replace(recordingId, crypto.randomUUID())),
    ];
    for (const change of variants) {
      const u = new URL(url);
      change(u);
      const r = await fetch(u);
      expect(r.status, u.toString()).toBe(403);
      expect(await r.json()).toMatchObject({ code: 403 });
    }
    const key = Buffer.from(fs.readFileSync(path.join(dataDir, 'keys', 'recording-url.key'), 'utf8').trim(), 'base64');
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = await fetch(`${server.baseUrl}/api/v1/recordings/${recordingId}/audio?expires=${past}&sig=${signRecording(key, recordingId, past, false)}&download=0`);
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);
  });
});

describe('recordings captured through /ws/ambient', () => {
  let server: TestServer;
  let dr: TestProvider;

  beforeAll(async () => {
    server = await startServer();
    dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the streamed audio while capturing and after the stream ends', async () => {
    const { default: WebSocket } = await import('ws');
    const { ambient_session_id: id } = await createSession(server, dr);
    const pcm = Buffer.alloc(16_000 * 2 * 2); // 2 s of a 440 Hz tone
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2);

    const ws = new WebSocket(`${server.wsUrl}/ws/ambient`, { headers: { sdp_service_token: dr.serviceToken, ambient_session_id: id } });
    const frames: any[] = [];
    ws.on('message', (d, isBinary) => {
      if (!isBinary) frames.push(JSON.parse(d.toString()));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from('2026-03-01T08:00:00.000Z').toString('base64') }));
    for (let off = 0; off < pcm.length; off += 3200) ws.send(JSON.stringify({ type: 'AUDIO', data: pcm.subarray(off, off + 3200).toString('base64') }));
    // Polled until it arrives (the test's own timeout bounds it): how soon depends on the machine's load.
    while (!frames.some((f) => f.type === 'ACK' && f.received_ms >= 2000)) await new Promise((r) => setTimeout(r, 50));
    expect(frames.some((f) => f.type === 'ACK' && f.received_ms >= 2000)).toBe(true);

    // Still capturing: streamable, and the URL serves what has been acknowledged so far.
    const live = await call(server, dr, 'GET', `${S(id)}/recording`);
    expect(live.body.is_streamable).toBe(true);
    expect(live.body.recordings).toHaveLength(1);
    expect(live.body.recordings[0].sequence_number).toBe(1);
    const during = await fetch(live.body.recordings[0].presigned_url, { headers: { range: 'bytes=0-43' } });
    expect(during.status).toBe(206);
    const header = Buffer.from(await during.arrayBuffer());
    expect(header.toString('ascii', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(40)).toBe(pcm.length);

    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.send(JSON.stringify({ type: 'AUDIO', data: 'RU9G' }));
    await closed;
    let status = '';
    while (!['completed', 'skipped', 'failed'].includes(status)) {
      status = (await call(server, dr, 'GET', `${S(id)}/status`)).body.status;
      if (!['completed', 'skipped', 'failed'].includes(status)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(['completed', 'skipped']).toContain(status);

    const after = await call(server, dr, 'GET', `${S(id)}/recording?download=true`);
    expect(after.body.is_streamable).toBe(false);
    const res = await fetch(after.body.recordings[0].presigned_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.subarray(0, 44)).toEqual(wavHeader(pcm.length));
    expect(wav.subarray(44)).toEqual(pcm);
    const mid = await fetch(after.body.recordings[0].presigned_url, { headers: { range: 'bytes=1000-1999' } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe(`bytes 1000-1999/${wav.length}`);
    expect(Buffer.from(await mid.arrayBuffer())).toEqual(wav.subarray(1000, 2000));
    // Content is available once terminal.
    expect((await call(server, dr, 'GET', `${S(id)}/content`)).status).toBe(200);
  });
});
