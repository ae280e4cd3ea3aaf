/**
 * Issue 27 on the real server: evidence on every sentence, diagnosis and order in the content, structured-data
 * and encounter APIs and in OpenAPI; the review before signing (items from what the engine left out, a
 * contradiction with a coded order, an edited section), a sign with its outcome (kept in the history and the
 * NOTE_SIGNED payload) and a sign without one (as before). The note and transcript are written into the
 * database while the server is stopped (as in sessions-seeded.int), so the evidence expected is exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openTestDatabase, startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { testApi, unchecked } from '../test/api-client';
import { getEncounterContent, getSessionContent, getSessionStructuredData } from '@/lib/contracts/routes/sessions';
import { getOpenApiDocument } from '@/lib/contracts/routes/meta';
import { updateNoteSection } from '@/lib/contracts/routes/app';
import { getNoteHistory, getNoteReview, signNote } from '@/lib/contracts/routes/workflow';
import { startTestReceiver, type TestReceiver } from '../webhooks/testing/receiver';
import { ambientSessions, recordings, sessionContent, transcriptEntries } from '../db/schema';
import { transitionSession } from '../domain/sessions/transition-session';
import { NOTE_ATTESTATION, type NoteReviewItem, type ReviewDecision } from '@/lib/contracts/note-review';

let server: TestServer;
let receiver: TestReceiver;
let dr: TestProvider;
let stranger: TestProvider;
let reviewed: string;
let legacy: string;
let encounterId: string;
const T = { ask: crypto.randomUUID(), bp: crypto.randomUUID(), plan: crypto.randomUUID(), allergy: crypto.randomUUID(), live: crypto.randomUUID() };

const lisinopril = {
  drug_name: 'lisinopril',
  medication_code: { code: '29046', type: 'RXCUI' },
  status: 'CHANGED',
  dosage: { quantity: 20, unit: 'MG', raw_value: '20 mg' },
  frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' },
  medication_timing: null,
  route: 'oral',
  duration_in_days: null,
  number_of_refills: null,
  instructions: null,
  metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
  linked_diagnosis_codes: ['I10'],
  source_transcripts: [T.plan],
};
const summary = [
  {
    title: 'History of present illness',
    loinc_code: '10164-2',
    content: 'Home blood pressure readings are about 150/95. We will see the patient again soon.',
    source_transcripts: [T.bp],
    sentences: [
      { text: 'Home blood pressure readings are about 150/95.', source_transcripts: [T.bp, T.ask] },
      { text: 'We will see the patient again soon.', source_transcripts: [], template: true },
    ],
  },
  {
    title: 'Medications',
    loinc_code: '10160-0',
    content: 'Lisinopril 10 mg daily.',
    source_transcripts: [T.plan],
    sentences: [{ text: 'Lisinopril 10 mg daily.', source_transcripts: [T.plan, 'context:visit'] }],
  },
  { title: 'Allergies', loinc_code: '48765-2', content: 'Penicillin allergy (rash).', source_transcripts: [T.allergy], sentences: [{ text: 'Penicillin allergy (rash).', source_transcripts: [T.allergy] }] },
];

beforeAll(async () => {
  receiver = await startTestReceiver();
  server = await startServer();
  const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/hook'), extra: { notify_note_signed: true } });
  dr = await registerAndLogin(server.baseUrl, partner);
  stranger = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  const first = await createSession(server, dr);
  reviewed = first.ambient_session_id;
  encounterId = first.encounter_id;
  legacy = (await createSession(server, dr, { encounter_id: encounterId })).ambient_session_id;
  await server.stop();

  const database = await openTestDatabase(server.dataDir);
  const db = database.db;
  for (const id of [reviewed, legacy]) {
    const recordingId = crypto.randomUUID();
    await db.insert(recordings).values({ id: recordingId, sessionId: id, sequenceNumber: 1, blobKey: `none/${recordingId}`, sessionOffsetMs: 0, durableBytes: 0 });
    const ids = id === reviewed ? T : { ask: crypto.randomUUID(), bp: crypto.randomUUID(), plan: crypto.randomUUID(), allergy: crypto.randomUUID(), live: crypto.randomUUID() };
    await db.insert(transcriptEntries).values([
      { id: ids.live, sessionId: id, recordingId, position: 0, source: 'live', text: 'blood pressure', speaker: 'UNKNOWN', startOffsetMs: 0, endOffsetMs: 900 },
      { id: ids.ask, sessionId: id, recordingId, position: 0, source: 'final', text: 'How is your blood pressure at home?', speaker: 'CLINICIAN', startOffsetMs: 1_000, endOffsetMs: 3_000 },
      { id: ids.bp, sessionId: id, recordingId, position: 1, source: 'final', text: 'My hypertension is not controlled, my blood pressure runs about 150 over 95.', speaker: 'PATIENT', startOffsetMs: 3_200, endOffsetMs: 6_400 },
      { id: ids.allergy, sessionId: id, recordingId, position: 2, source: 'final', text: 'I am allergic to penicillin, it gives me a rash.', speaker: 'PATIENT', startOffsetMs: 6_500, endOffsetMs: 9_000 },
      { id: ids.plan, sessionId: id, recordingId, position: 3, source: 'final', text: "Let's increase your lisinopril from 10 mg to 20 mg daily.", speaker: 'CLINICIAN', startOffsetMs: 9_100, endOffsetMs: 12_750 },
    ]);
  }
  const structuredData = {
    diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential (primary) hypertension', type: 'ICD10' }], diagnosis_note: '', source_transcripts: [T.bp] }] },
    orders: { medication_orders: { values: [lisinopril], partial_values: [] } },
    section_structured_values: [],
  };
  const leftOut = [{ reason: 'LOW_CONFIDENCE', kind: 'span', text: 'and the metformin', loinc_code: '10160-0', source_transcripts: [T.plan] }];
  await db.insert(sessionContent).values([
    { sessionId: reviewed, summary, generatedSummary: summary, structuredData, leftOut, engine: 'seeded' },
    // Stored before issue 27: no generated text, no left_out, no sentences.
    { sessionId: legacy, summary: [{ title: 'Assessment', loinc_code: '51848-0', content: 'Hypertension.', source_transcripts: [] }], structuredData: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] } }, section_structured_values: [] }, engine: 'seeded' },
  ]);
  for (const id of [reviewed, legacy]) for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, id, to);
  const [row] = await db.select({ status: ambientSessions.status }).from(ambientSessions).where(eq(ambientSessions.id, reviewed));
  expect(row!.status).toBe('completed');
  await database.close();
  server = await startServer({ dataDir: server.dataDir });
}, 600_000);
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

const session = (id: string) => ({ params: { ambient_session_id: id } });

/** The NOTE_SIGNED notifications of a session received so far, once there is one (bounded for a wedged outbox, not a speed check). */
async function noteSigned(sessionId: string): Promise<Array<Record<string, any>>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const got = receiver.to('/hook').map((r) => JSON.parse(r.rawBody)).filter((b) => b.status === 'NOTE_SIGNED' && b.session_id === sessionId);
    if (got.length > 0) return got;
    if (Date.now() > deadline) throw new Error(`no NOTE_SIGNED for ${sessionId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('evidence in the APIs', () => {
  it('gives each sentence, diagnosis and order the transcript entries it came from and their time range', async () => {
    const r = await call(server, dr, getSessionContent, session(reviewed));
    expect(r.status).toBe(200);
    const [hpi, meds, allergies] = r.body.summary;
    expect(hpi.sentences).toEqual([
      { text: 'Home blood pressure readings are about 150/95.', source_transcripts: [T.bp, T.ask], evidence: { transcript_ids: [T.ask, T.bp], start_ms: 1_000, end_ms: 6_400 } },
      { text: 'We will see the patient again soon.', source_transcripts: [], template: true, evidence: null },
    ]);
    // A context id is no evidence of what was said.
    expect(meds.sentences[0].evidence).toEqual({ transcript_ids: [T.plan], start_ms: 9_100, end_ms: 12_750 });
    expect(allergies.sentences[0].evidence).toEqual({ transcript_ids: [T.allergy], start_ms: 6_500, end_ms: 9_000 });
    const sd = r.body.structured_data;
    expect(sd.diagnoses.values[0].evidence).toEqual({ transcript_ids: [T.bp], start_ms: 3_200, end_ms: 6_400 });
    expect(sd.orders.medication_orders.values[0].evidence).toEqual({ transcript_ids: [T.plan], start_ms: 9_100, end_ms: 12_750 });

    const structured = await call(server, dr, getSessionStructuredData, session(reviewed));
    expect(structured.body.structured_data).toEqual(sd);
    const encounter = await call(server, dr, getEncounterContent, { params: { encounter_id: encounterId } });
    expect(encounter.status, encounter.text).toBe(200);
    const encMeds = encounter.body.summary.find((s: { loinc_code: string }) => s.loinc_code === '10160-0');
    expect(encMeds.sentences[0].evidence).toEqual(meds.sentences[0].evidence);
    expect(encounter.body.structured_data.diagnoses.values[0].evidence).toEqual(sd.diagnoses.values[0].evidence);
  });

  it('documents evidence, template, the review route and the sign body in OpenAPI', async () => {
    const doc = (await testApi(server).call(getOpenApiDocument)).body;
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.NoteSentence.properties)).toEqual(['text', 'source_transcripts', 'template', 'evidence']);
    expect(JSON.stringify(schemas.SummarySection.properties.sentences)).toContain('#/components/schemas/NoteSentence');
    for (const owner of [schemas.NoteSentence, schemas.Diagnosis, schemas.MedicationOrder]) {
      expect(owner.properties.evidence.type).toEqual(['object', 'null']);
      expect(Object.keys(owner.properties.evidence.properties)).toEqual(['transcript_ids', 'start_ms', 'end_ms']);
      expect(owner.required).not.toContain('evidence');
    }
    expect(doc.paths['/api/v1/ambient/session/{ambient_session_id}/note/review'].get).toBeDefined();
    const sign = doc.paths['/api/v1/ambient/session/{ambient_session_id}/note/sign'].post;
    expect(sign.requestBody.required).toBe(false);
    expect(Object.keys(schemas.SignNoteRequest.properties)).toEqual(['review']);
    expect(Object.keys(schemas.NoteReviewItem.properties)).toEqual(['id', 'kind', 'text', 'detail', 'loinc_code', 'section_title', 'source_transcripts']);
  });
});

describe('review before signing', () => {
  const decide = (items: NoteReviewItem[], decision: ReviewDecision) =>
    items.map(({ id, kind, text, loinc_code }) => ({ id, kind, text, loinc_code, decision }));

  it('lists the span left out, the contradicting dose and, after an edit, the edited section', async () => {
    const first = await call(server, dr, getNoteReview, session(reviewed));
    expect(first.status, first.text).toBe(200);
    expect(first.body.attestation).toBe(NOTE_ATTESTATION);
    expect(first.body.items.map((i: { kind: string; text: string }) => [i.kind, i.text])).toEqual([
      ['LOW_CONFIDENCE', 'and the metformin'],
      ['CONTRADICTION', 'Lisinopril 10 mg daily.'],
    ]);
    expect(first.body.items[1]).toMatchObject({ loinc_code: '10160-0', section_title: 'Medications', detail: 'The note gives lisinopril 10 mg, but the coded order is 20 mg (CHANGED).' });

    const edit = await call(server, dr, updateNoteSection, { params: { ambient_session_id: reviewed, loinc: '10164-2' }, body: { content: 'Home readings about 150/95. Headaches in the morning.' } });
    expect(edit.status, edit.text).toBe(200);
    const after = await call(server, dr, getNoteReview, session(reviewed));
    expect(after.body.items.map((i: { kind: string; text: string }) => `${i.kind}:${i.text}`)).toEqual([
      'LOW_CONFIDENCE:and the metformin',
      'CONTRADICTION:Lisinopril 10 mg daily.',
      'EDITED_SECTION:History of present illness',
    ]);
    expect((await call(server, stranger, getNoteReview, session(reviewed))).status).toBe(404);
  });

  it('refuses a review that leaves an item undecided or is not attested, naming the field, and signs none', async () => {
    const items = (await call(server, dr, getNoteReview, session(reviewed))).body.items;
    const partial = await call(server, dr, signNote, { ...session(reviewed), body: { review: { attested: true, items: decide(items.slice(0, 2), 'ACKNOWLEDGED') } } });
    expect(partial.status).toBe(400);
    expect(partial.body).toEqual({ code: 400, message: expect.stringMatching(/^review\.items: 1 item of the review has no decision \(EDITED_SECTION "History of present illness"\)/) });
    const unattested = await call(server, dr, signNote, { ...session(reviewed), body: unchecked({ review: { attested: false, items: decide(items, 'ACKNOWLEDGED') } }) });
    expect(unattested.status).toBe(400);
    expect(unattested.body.message).toBe('review.attested: must be true: the signer confirms the attestation sentence');
    const badDecision = await call(server, dr, signNote, { ...session(reviewed), body: { review: { attested: true, items: decide(items, unchecked('IGNORED')) } } });
    expect(badDecision.body.message).toBe('review.items[0].decision: must be RESOLVED or ACKNOWLEDGED');
    expect((await call(server, dr, getNoteHistory, session(reviewed))).body.note_status).toBe('draft');
  });

  it('signs with the outcome and keeps it in the history and the NOTE_SIGNED payload, without the note text', async () => {
    const items = (await call(server, dr, getNoteReview, session(reviewed))).body.items;
    const decisions = [...decide(items.slice(0, 1), 'RESOLVED'), ...decide(items.slice(1), 'ACKNOWLEDGED')];
    const signed = await call(server, dr, signNote, { ...session(reviewed), body: { review: { attested: true, items: decisions } } });
    expect(signed.status, signed.text).toBe(200);
    expect(signed.body).toMatchObject({ note_status: 'signed', locked: true });
    const history = await call(server, dr, getNoteHistory, session(reviewed));
    const sign = history.body.events.find((e: { type: string }) => e.type === 'sign');
    expect(sign.review).toEqual({
      attestation: NOTE_ATTESTATION,
      items: [
        { id: items[0].id, kind: 'LOW_CONFIDENCE', text: 'and the metformin', loinc_code: '10160-0', decision: 'RESOLVED' },
        { id: items[1].id, kind: 'CONTRADICTION', text: 'Lisinopril 10 mg daily.', loinc_code: '10160-0', decision: 'ACKNOWLEDGED' },
        { id: items[2].id, kind: 'EDITED_SECTION', text: 'History of present illness', loinc_code: '10164-2', decision: 'ACKNOWLEDGED' },
      ],
    });
    const [payload] = await noteSigned(reviewed);
    expect(payload!.review).toEqual({
      attested: true,
      items: sign.review.items.map(({ id, kind, loinc_code, decision }: Record<string, string>) => ({ id, kind, loinc_code, decision })),
    });
    expect(JSON.stringify(payload)).not.toMatch(/metformin|Lisinopril 10 mg/);
  });

  it('still signs without a review, as before, and keeps no review for that signature', async () => {
    const review = await call(server, dr, getNoteReview, session(legacy));
    expect(review.status).toBe(200);
    const signed = await call(server, dr, signNote, session(legacy));
    expect(signed.status, signed.text).toBe(200);
    const sign = (await call(server, dr, getNoteHistory, session(legacy))).body.events.find((e: { type: string }) => e.type === 'sign');
    expect(sign).toBeDefined();
    expect(sign.review).toBeUndefined();
    const hooks = await noteSigned(legacy);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.review).toBeUndefined();
  });
});
