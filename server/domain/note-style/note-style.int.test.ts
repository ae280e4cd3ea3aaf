/**
 * Note styles, templates and pre-charting through the API (issue 31): template storage in the preferences
 * (validation naming the field, per provider, READONLY), a visit's style and pre-visit note, the pre-chart
 * from the session context and a prior visit, and a finished visit's note written again in another style
 * from its stored transcript (refused once signed). The finished visit is seeded while the server is stopped.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../test/partners';
import { call, createSession } from '../../test/session-api';
import { recordings, sessionContent, transcriptEntries } from '../../db/schema';
import { transitionSession } from '../sessions/transition-session';
import { getSessionContent, setSessionContext } from '@/lib/contracts/routes/sessions';
import { getPreferences, updatePreferences } from '@/lib/contracts/routes/preferences';
import { getPreChart, getVisitNoteStyle, setPrevisitNote, setVisitNoteStyle } from '@/lib/contracts/routes/note-style';
import { signNote } from '@/lib/contracts/routes/workflow';

const TEMPLATE_ID = crypto.randomUUID();
const MRN = `MRN-${crypto.randomUUID().slice(0, 8)}`;
const LINES: Array<[string, string]> = [
  ['CLINICIAN', 'Good morning. What brings you in today?'],
  ['PATIENT', 'I have had a cough and a fever for two weeks, and my chest hurts when I cough.'],
  ['PATIENT', 'I take lisinopril ten milligrams once a day for high blood pressure.'],
  ['CLINICIAN', 'I think this is acute bronchitis. I will start amoxicillin five hundred milligrams three times a day for seven days.'],
  ['CLINICIAN', 'Keep taking the lisinopril, and come back if the fever lasts more than three days.'],
];
const template = (over: Record<string, unknown> = {}) => ({
  id: TEMPLATE_ID,
  name: 'Chest clinic',
  sections: [
    { loinc: '51847-2', heading: 'Impression and plan', format: 'BULLETED', template_text: ['Return precautions given.'] },
    { loinc: '10164-2', heading: 'Story', format: 'NARRATIVE' },
  ],
  ...over,
});

let server: TestServer;
let dr: TestProvider;
let colleague: TestProvider;
let outsider: TestProvider;
let finished: string;
let upcoming: string;
const transcriptIds: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const partner = await createTestPartner(server.baseUrl);
  dr = await registerAndLogin(server.baseUrl, partner);
  colleague = await registerAndLogin(server.baseUrl, partner);
  outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  const patient = { name: 'Ana Test', mrn: MRN };
  finished = (await createSession(server, dr)).ambient_session_id;
  upcoming = (await createSession(server, dr)).ambient_session_id;
  const contexts: Array<[string, unknown]> = [
    [finished, { patient, visit: { chief_complaint: 'Cough' } }],
    [upcoming, { patient, diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential hypertension', type: 'ICD10' }] }] }, orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'CONTINUED', dosage: { raw_value: '10 mg' }, frequency: { raw_value: 'daily' } }] } } }],
  ];
  for (const [id, context] of contexts) {
    const r = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: context });
    expect(r.status, r.text).toBe(200);
  }
  await server.stop();
  const database = await openTestDatabase(server.dataDir);
  const db = database.db;
  const recordingId = crypto.randomUUID();
  await db.insert(recordings).values({ id: recordingId, sessionId: finished, sequenceNumber: 1, blobKey: `seed/${recordingId}`, startTime: new Date('2026-11-20T10:00:00Z'), endedAt: new Date('2026-11-20T10:00:30Z'), durableBytes: 0 });
  await db.insert(transcriptEntries).values(
    LINES.map(([speaker, text], i) => {
      const id = crypto.randomUUID();
      transcriptIds.push(id);
      return { id, sessionId: finished, recordingId, position: i, source: 'final', text, speaker, startOffsetMs: i * 5000, endOffsetMs: i * 5000 + 4000 };
    }),
  );
  await db.insert(sessionContent).values({
    sessionId: finished,
    engine: 'embedded',
    summary: [{ title: 'ASSESSMENT AND PLAN', content: 'Acute bronchitis. Start amoxicillin.', loinc_code: '51847-2', source_transcripts: [] }],
    structuredData: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] } }, section_structured_values: [] },
  });
  for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, finished, to);
  await database.close();
  server = await startServer({ dataDir: server.dataDir });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

const prefs = (who: TestProvider, p: Record<string, unknown>) => call(server, who, updatePreferences, { body: { personalization_preference: p } });

describe('templates in the preferences', () => {
  it('stores a template and a default style per provider, and leaves them out until set', async () => {
    expect((await call(server, dr, getPreferences)).body).toEqual({ personalization_preference: { verbosity: 'BALANCED', section_format: [] } });
    const saved = await prefs(dr, { templates: [template()], note_style: `template:${TEMPLATE_ID}` });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.personalization_preference).toEqual({ verbosity: 'BALANCED', section_format: [], note_style: `template:${TEMPLATE_ID}`, templates: [template()] });
    expect((await call(server, dr, getPreferences)).body).toEqual(saved.body);
    expect((await call(server, colleague, getPreferences)).body.personalization_preference.templates).toBeUndefined();
  });

  it('refuses a bad template with {code, message} naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ templates: [template({ sections: [] })] }, /^personalization_preference\.templates\[0\]\.sections: must hold at least one section$/],
      [{ templates: [template({ sections: [{ loinc: '18776-5', heading: 'Plan', format: 'NARRATIVE', template_text: ['Patient agrees with the plan.'] }] })] }, /^personalization_preference\.templates\[0\]\.sections\[0\]\.template_text\[0\]: must not state what the patient said or agreed to/],
      [{ templates: [template({ sections: [{ loinc: '99999-9', heading: 'X', format: 'NARRATIVE' }] })] }, /^personalization_preference\.templates\[0\]\.sections\[0\]\.loinc: /],
      [{ templates: [template({ id: 'nope' })] }, /^personalization_preference\.templates\[0\]\.id: must be a UUID$/],
      [{ note_style: 'HAIKU' }, /^personalization_preference\.note_style: must be one of SOAP, APSO, HP, PROGRESS or template:<template id>$/],
      [{ note_style: `template:${crypto.randomUUID()}` }, /^personalization_preference\.note_style: the default note style names template .* which is not among your templates$/],
      // Deleting the template the default names would leave the default pointing nowhere.
      [{ templates: [] }, /^personalization_preference\.templates: the default note style names template/],
    ];
    for (const [body, message] of cases) {
      const r = await prefs(dr, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect((await call(server, dr, getPreferences)).body.personalization_preference.templates).toEqual([template()]);
  });

  it('lets a READONLY partner read but not write templates', async () => {
    const reader = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl, { access_level: 'READONLY' }));
    expect((await prefs(reader, { templates: [template()] })).status).toBe(403);
    expect((await call(server, reader, getPreferences)).status).toBe(200);
    expect((await call(server, reader, setVisitNoteStyle, { params: { ambient_session_id: upcoming }, body: { note_style: 'SOAP' } })).status).toBe(403);
    expect((await call(server, reader, setPrevisitNote, { params: { ambient_session_id: upcoming }, body: { previsit_note: 'x' } })).status).toBe(403);
  });
});

describe("a visit's style and pre-chart", () => {
  it("uses the clinician's default until the visit chooses, and checks the choice", async () => {
    expect((await call(server, dr, getVisitNoteStyle, { params: { ambient_session_id: upcoming } })).body).toEqual({ note_style: null, effective_style: `template:${TEMPLATE_ID}`, rerendered: false });
    expect((await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: upcoming }, body: { note_style: 'APSO' } })).body).toEqual({ note_style: 'APSO', effective_style: 'APSO', rerendered: false });
    const notMine = await call(server, colleague, setVisitNoteStyle, { params: { ambient_session_id: upcoming }, body: { note_style: 'SOAP' } });
    expect(notMine.status).toBe(404);
    expect((await call(server, outsider, getPreChart, { params: { ambient_session_id: upcoming } })).status).toBe(404);
    const other = await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: upcoming }, body: { note_style: `template:${crypto.randomUUID()}` } });
    expect(other).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/^note_style: names template .* not one of your templates$/) } });
    expect((await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: upcoming }, body: { note_style: 'haiku' } })).body.message).toMatch(/^note_style: must be one of SOAP/);
  });

  it('shows problems and medications from the context, the last visit\'s plan, and the pre-visit note', async () => {
    const put = await call(server, dr, setPrevisitNote, { params: { ambient_session_id: upcoming }, body: { previsit_note: '  Recheck blood pressure; labs pending.  ' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({
      problems: [{ name: 'Essential hypertension', code: 'I10' }],
      medications: [{ name: 'lisinopril', detail: '10 mg daily' }],
      allergies: [],
      last_plan: { ambient_session_id: finished, date: expect.any(String), text: 'Acute bronchitis. Start amoxicillin.' },
      previsit_note: 'Recheck blood pressure; labs pending.',
    });
    expect((await call(server, dr, setPrevisitNote, { params: { ambient_session_id: upcoming }, body: { previsit_note: 'x'.repeat(501) } })).body.message).toBe('previsit_note: must be at most 500 characters');
    expect((await call(server, dr, setPrevisitNote, { params: { ambient_session_id: finished }, body: { previsit_note: 'late' } })).status).toBe(409);
  });

  it('writes a finished note again in the chosen style from its transcript, and refuses once signed', async () => {
    const soap = await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: finished }, body: { note_style: 'SOAP' } });
    expect(soap.status, soap.text).toBe(200);
    expect(soap.body).toEqual({ note_style: 'SOAP', effective_style: 'SOAP', rerendered: true });
    const content = (await call(server, dr, getSessionContent, { params: { ambient_session_id: finished } })).body;
    expect(content.summary.map((s: { title: string }) => s.title)).toEqual(['SUBJECTIVE', 'OBJECTIVE', 'ASSESSMENT', 'PLAN']);
    const plan = content.summary.find((s: { title: string }) => s.title === 'PLAN');
    expect(plan.content).toMatch(/amoxicillin/i);
    const sentences = content.summary.flatMap((s: { sentences?: Array<{ source_transcripts: string[]; template?: boolean }> }) => s.sentences ?? []);
    expect(sentences.length).toBeGreaterThan(0);
    for (const s of sentences) for (const id of s.source_transcripts) expect(transcriptIds).toContain(id);

    const mine = await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: finished }, body: { note_style: `template:${TEMPLATE_ID}` } });
    expect(mine.body.rerendered).toBe(true);
    const again = (await call(server, dr, getSessionContent, { params: { ambient_session_id: finished } })).body;
    expect(again.summary.map((s: { title: string }) => s.title)).toEqual(['Impression and plan', 'Story']);
    expect(again.summary[0].sentences[0]).toMatchObject({ text: 'Return precautions given.', source_transcripts: [], template: true });
    expect(again.summary[0].content.startsWith('• Return precautions given.')).toBe(true);

    expect((await call(server, dr, signNote, { params: { ambient_session_id: finished } })).status).toBe(200);
    const locked = await call(server, dr, setVisitNoteStyle, { params: { ambient_session_id: finished }, body: { note_style: 'APSO' } });
    expect(locked).toMatchObject({ status: 409, body: { code: 409, message: expect.stringMatching(/signed/) } });
    expect((await call(server, dr, getVisitNoteStyle, { params: { ambient_session_id: finished } })).body.note_style).toBe(`template:${TEMPLATE_ID}`);
  });
});
