import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { until } from '../test/until';
import { testApi, unchecked, type ApiReply } from '../test/api-client';
import { createSession as createSessionRoute, endSession, getEncounterContent, getSessionContent, getSessionContentDeprecated, getSessionContext, getSessionStatus, getSessionStructuredData, getTranscript, listRecordings, patchSessionContext, setSessionContext, setSessionMetadata } from '@/lib/contracts/routes/sessions';
import { rewriteSelection } from '@/lib/contracts/routes/rewrite';
import { getPreferences, updatePreferences } from '@/lib/contracts/routes/preferences';

describe('session API: access, ending, preferences and rewrite', () => {
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

  it("answers 404 for another provider's or partner's session, for every verb", async () => {
    const { ambient_session_id: id, encounter_id } = await createSession(server, dr);
    for (const who of [colleague, outsider]) {
      const api = testApi(server, who);
      const session = { params: { ambient_session_id: id } };
      for (const [what, request] of [
        ['GET /status', () => api.call(getSessionStatus, session)],
        ['GET /transcript', () => api.call(getTranscript, session)],
        ['GET /content', () => api.call(getSessionContent, session)],
        ['GET /structured-data', () => api.call(getSessionStructuredData, session)],
        ['GET /recording', () => api.call(listRecordings, session)],
        ['GET /context', () => api.call(getSessionContext, session)],
        ['POST /context', () => api.call(setSessionContext, { ...session, body: { visit: { chief_complaint: 'x' } } })],
        ['PATCH /context', () => api.call(patchSessionContext, { ...session, body: { visit: { chief_complaint: 'x' } } })],
        ['POST /metadata', () => api.call(setSessionMetadata, { ...session, body: { patient_sex: 'male' } })],
        ['POST /end', () => api.call(endSession, session)],
      ] as Array<[string, () => Promise<ApiReply>]>) {
        const r = await request();
        expect(r.status, what).toBe(404);
        expect(r.body.code).toBe(404);
      }
      expect((await call(server, who, getSessionContentDeprecated, { params: { ambient_session_id: id } })).status).toBe(404);
      expect((await call(server, who, getEncounterContent, { params: { encounter_id } })).status).toBe(404);
      const rw = await call(server, who, rewriteSelection, { body: {
        selected_text: 'abc',
        selection_start: 0,
        selection_end: 3,
        instruction: 'CONCISE',
        ambient_session_id: id,
      } });
      expect(rw.status).toBe(404);
    }
    // The owner still sees it unchanged.
    expect((await call(server, dr, getSessionStatus, { params: { ambient_session_id: id } })).body).toEqual({ status: 'created' });
    expect((await call(server, dr, getSessionContext, { params: { ambient_session_id: id } })).body).toEqual({ context: {} });
  });

  it('ends a session that never streamed and refuses content until it is terminal', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const before = await call(server, dr, getSessionContent, { params: { ambient_session_id: id } });
    expect(before.status).toBe(409);
    expect(before.body.message).toMatch(/session is created/);
    expect((await call(server, dr, getSessionContentDeprecated, { params: { ambient_session_id: id } })).status).toBe(409);
    expect((await call(server, dr, getSessionStructuredData, { params: { ambient_session_id: id } })).status).toBe(409);

    const end = await call(server, dr, endSession, { params: { ambient_session_id: id } });
    expect(end).toMatchObject({ status: 200, body: { status: 'running' } });
    // The worker finalises it in its own time; with no audio it ends skipped, with an empty note.
    const terminal = await until('the session to end', async () => {
      const status = (await call(server, dr, getSessionStatus, { params: { ambient_session_id: id } })).body.status as string;
      return status === 'running' ? undefined : status;
    });
    expect(terminal).toBe('skipped');
    const after = await call(server, dr, getSessionContent, { params: { ambient_session_id: id } });
    expect(after.status).toBe(200);
    expect(after.body.summary).toEqual([]);
    const again = await call(server, dr, endSession, { params: { ambient_session_id: id } });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/session is skipped; it has already ended/);
    expect((await call(server, dr, getTranscript, { params: { ambient_session_id: id } })).body).toEqual({ final_transcript: [], recording_gaps: [] });
    expect((await call(server, dr, listRecordings, { params: { ambient_session_id: id } })).body).toEqual({ recordings: [], is_streamable: false });
  });

  it('round-trips preferences', async () => {
    const def = await call(server, dr, getPreferences);
    expect(def.body).toEqual({ personalization_preference: { verbosity: 'BALANCED', section_format: [] } });
    const p1 = await call(server, dr, updatePreferences, { body: {
      personalization_preference: { verbosity: 'CONCISE', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] },
    } });
    expect(p1.body).toEqual({ personalization_preference: { verbosity: 'CONCISE', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] } });
    const p2 = await call(server, dr, updatePreferences, { body: { personalization_preference: { verbosity: 'DETAILED' } } });
    expect(p2.body.personalization_preference).toEqual({ verbosity: 'DETAILED', section_format: [{ loinc: '51847-2', style: 'BULLETED' }] });
    expect((await call(server, dr, getPreferences)).body).toEqual(p2.body);
    // Preferences are per provider.
    expect((await call(server, colleague, getPreferences)).body.personalization_preference.verbosity).toBe('BALANCED');
    const bad = await call(server, dr, updatePreferences, { body: unchecked({ personalization_preference: { section_format: [{ loinc: '51847-2', style: 'HAIKU' }] } }) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^personalization_preference\.section_format\[0\]\.style: /);
  });

  it('rewrites a selection and returns its write-back offsets', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const selected = 'The patient states that she has been experiencing a cough that has lasted for approximately three weeks now.';
    const res = await testApi(server.baseUrl, { ...dr.headers, 'x-request-id': 'rw-test-1' }).send(rewriteSelection, { body: {
        selected_text: selected,
        context_before: 'HPI: ',
        context_after: ' No fever.',
        selection_start: 5,
        selection_end: 5 + selected.length,
        instruction: 'CONCISE',
        ambient_session_id: id,
        loinc_code: '10164-2',
      } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rewritten_text: string; selection_start: number; selection_end: number; request_id: string };
    expect(body.rewritten_text.length).toBeGreaterThan(0);
    expect(body.rewritten_text).toMatch(/cough/i);
    expect(body.selection_start).toBe(5);
    expect(body.selection_end).toBe(5 + body.rewritten_text.length);
    expect(body.request_id).toBe('rw-test-1');

    const off = await call(server, dr, rewriteSelection, { body: { selected_text: 'abc', selection_start: 0, selection_end: 4, instruction: 'CONCISE' } });
    expect(off.status).toBe(400);
    expect(off.body.message).toMatch(/^selection_end: /);
  });

  it('refuses writes to READONLY partners but allows reads and rewrite', async () => {
    const ro = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const reader = await registerAndLogin(server.baseUrl, ro);
    const create = await call(server, reader, createSessionRoute, { body: {} });
    expect(create).toMatchObject({ status: 403, body: { code: 403 } });
    const prefs = await call(server, reader, updatePreferences, { body: { personalization_preference: { verbosity: 'CONCISE' } } });
    expect(prefs.status).toBe(403);
    expect((await call(server, reader, getPreferences)).status).toBe(200);
    const some = crypto.randomUUID();
    expect((await call(server, reader, setSessionContext, { params: { ambient_session_id: some }, body: {} })).status).toBe(403);
    expect((await call(server, reader, setSessionMetadata, { params: { ambient_session_id: some }, body: {} })).status).toBe(403);
    expect((await call(server, reader, endSession, { params: { ambient_session_id: some } })).status).toBe(403);
    expect((await call(server, reader, getSessionStatus, { params: { ambient_session_id: some } })).status).toBe(404);
    const rw = await call(server, reader, rewriteSelection, { body: { selected_text: 'Patient is feeling a lot better today.', selection_start: 0, selection_end: 38, instruction: 'PATIENT_FRIENDLY' } });
    expect(rw.status).toBe(200);
  });

  it('requires sdp_provider_id for BEARER partners', async () => {
    const bearer = await createTestPartner(server.baseUrl, { type: 'BEARER' });
    const p = await registerAndLogin(server.baseUrl, bearer, { providerId: 'NPI-424242' });
    const { sdp_provider_id, ...withoutId } = p.headers;
    expect(sdp_provider_id).toBe('NPI-424242');
    const missing = await call(server, withoutId, createSessionRoute, { body: {} });
    expect(missing.status).toBe(401);
    expect(missing.body.message).toMatch(/sdp_provider_id/);
    const wrong = await call(server, { ...withoutId, sdp_provider_id: 'NPI-000001' }, createSessionRoute, { body: {} });
    expect(wrong.status).toBe(401);
    const s = await createSession(server, p);
    expect((await call(server, p, getSessionStatus, { params: { ambient_session_id: s.ambient_session_id } })).body).toEqual({ status: 'created' });
    expect((await call(server, withoutId, getSessionStatus, { params: { ambient_session_id: s.ambient_session_id } })).status).toBe(401);
  });
});

// While a session waits for its finalisation it is running. A server without job workers holds it there, so
// these checks never race the worker that would end it.
describe('session API: a session waiting for its finalisation', () => {
  let server: TestServer;
  let dr: TestProvider;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '0' } });
    dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses content while running, and a second end changes nothing', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    expect(await call(server, dr, endSession, { params: { ambient_session_id: id } })).toMatchObject({ status: 200, body: { status: 'running' } });
    const during = await call(server, dr, getSessionContent, { params: { ambient_session_id: id } });
    expect(during.status).toBe(409);
    expect(during.body.message).toMatch(/session is running/);
    expect((await call(server, dr, getSessionStructuredData, { params: { ambient_session_id: id } })).status).toBe(409);
    expect(await call(server, dr, endSession, { params: { ambient_session_id: id } })).toMatchObject({ status: 200, body: { status: 'running' } });
    expect((await call(server, dr, getSessionStatus, { params: { ambient_session_id: id } })).body).toEqual({ status: 'running' });
  });
});
