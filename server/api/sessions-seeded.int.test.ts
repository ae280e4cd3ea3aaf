import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openTestDatabase, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession, UUID } from '../test/session-api';
import { testApi } from '../test/api-client';
import {
  endSession,
  getEncounterContent,
  getEncounterStructuredData,
  getRecordingAudio,
  getSessionContent,
  getSessionContentDeprecated,
  getSessionEncounterStructuredData,
  getSessionStructuredData,
  getTranscript,
  listRecordings,
  patchSessionContext,
  setSessionContext,
} from '@/lib/contracts/routes/sessions';
import { ambientSessions, patientContext, recordings, sessionContent, transcriptEntries } from '../db/schema';
import { FsBlobStore, recordingBlobKey } from '../blob';
import { transitionSession } from '../domain/sessions/transition-session';
import { signRecording } from '../domain/sessions/recording-url';
import { wavHeader } from '../domain/sessions/wav';

const session = (id: string) => ({ params: { ambient_session_id: id } });
const encounter = (id: string) => ({ params: { encounter_id: id } });

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
    expect((await call(server, dr, setSessionContext, { params: { ambient_session_id: readyId }, body: { patient: { emr_patient_id: 'MRN-9' } } })).status).toBe(200);
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
    const r = await call(server, dr, getTranscript, session(completedId));
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
    const c = await call(server, dr, getSessionContent, session(completedId));
    expect(c.status).toBe(200);
    expect(c.body.summary).toEqual([{ title: 'History of present illness', content: 'Cough for three weeks.', loinc_code: '10164-2', source_transcripts: [] }]);
    expect(c.body.structured_data.diagnoses.values[0].codes[0].code).toBe('R05.9');
    expect((await call(server, dr, getSessionContentDeprecated, session(completedId))).body).toEqual(c.body);
    expect((await call(server, dr, getSessionStructuredData, session(completedId))).body).toEqual({ structured_data: c.body.structured_data, structured_data_version: c.body.structured_data_version });
  });

  it('merges the encounter over its completed sessions of this provider', async () => {
    const e = await call(server, dr, getEncounterContent, encounter(encounterId));
    expect(e.status).toBe(200);
    expect(e.body.summary).toHaveLength(1);
    expect(e.body.summary[0].content).toBe('Cough for three weeks.\n\nCough improving.');
    expect(e.body.structured_data.diagnoses.values.map((d: any) => d.codes[0].code)).toEqual(['R05.9', 'J20.9']);
    expect(e.body.structured_data.orders.medication_orders.values.map((o: any) => o.status)).toEqual(['CONTINUED']);
    const sd = await call(server, dr, getEncounterStructuredData, encounter(encounterId));
    expect(sd.body).toEqual({ structured_data: e.body.structured_data });
    expect((await call(server, dr, getSessionEncounterStructuredData, session(completedId))).body).toEqual(sd.body);
    expect((await call(server, dr, getEncounterContent, encounter(crypto.randomUUID()))).status).toBe(404);
    // The other provider sees only their own session of the same encounter.
    const theirs = await call(server, other, getEncounterContent, encounter(encounterId));
    expect(theirs.body.summary.map((s: any) => s.content)).toEqual(['Someone else.']);
  });

  it('refuses context on a terminal session', async () => {
    const r = await call(server, dr, patchSessionContext, { ...session(completedId), body: { visit: { chief_complaint: 'late' } } });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/session is completed/);
    expect((await call(server, dr, endSession, session(completedId))).status).toBe(409);
  });

  it("checks medication orders against the patient's EMR medications", async () => {
    const bad = await call(server, dr, patchSessionContext, {
      ...session(readyId),
      body: { orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'REFILLED' }, { drug_name: 'atorvastatin', status: 'DISCONTINUED' }] } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('orders.medication_orders.values[1]: atorvastatin is not an active medication for this patient, so it cannot be DISCONTINUED');
    const ok = await call(server, dr, patchSessionContext, {
      ...session(readyId),
      body: { orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }, { drug_name: 'atorvastatin', status: 'NEW' }] } } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.context.patient).toEqual({ emr_patient_id: 'MRN-9' });
    expect(ok.body.context.orders.medication_orders.values).toHaveLength(2);
  });

  it('lists recordings with signed URLs and serves WAV with Range', async () => {
    const list = await call(server, dr, listRecordings, { ...session(completedId), query: { download: true } });
    expect(list.status).toBe(200);
    expect(list.body.is_streamable).toBe(false);
    expect(list.body.recordings).toHaveLength(1);
    const rec = list.body.recordings[0];
    expect(rec).toMatchObject({ recording_id: recordingId, sequence_number: 1 });
    expect(Date.parse(rec.expires_at)).toBeGreaterThan(Date.now());
    const url = new URL(rec.presigned_url);
    expect(url.origin).toBe(server.baseUrl);

    // raw fetch: the signed URL as the listing hands it out (its query is the authorisation), here and below
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

    const inline = await call(server, dr, listRecordings, { ...session(completedId), query: { download: false } });
    const inlineRes = await fetch(inline.body.recordings[0].presigned_url);
    expect(inlineRes.status).toBe(200);
    expect(inlineRes.headers.get('content-disposition')).toBe('inline');
    await inlineRes.arrayBuffer();

    // A ready session is still capturing audio.
    expect((await call(server, dr, listRecordings, session(readyId))).body).toEqual({ recordings: [], is_streamable: true });
  });

  it('refuses tampered and expired recording URLs', async () => {
    const list = await call(server, dr, listRecordings, { ...session(completedId), query: { download: false } });
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
      // raw fetch: the signed URL with one part tampered with
      const r = await fetch(u);
      expect(r.status, u.toString()).toBe(403);
      expect(await r.json()).toMatchObject({ code: 403 });
    }
    const key = Buffer.from(fs.readFileSync(path.join(dataDir, 'keys', 'recording-url.key'), 'utf8').trim(), 'base64');
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = await testApi(server).call(getRecordingAudio, { params: { recording_id: recordingId }, query: { expires: past, sig: signRecording(key, recordingId, past, false), download: '0' } });
    expect(expired.status).toBe(403);
    expect(expired.body.message).toMatch(/expired/);
  });
});
