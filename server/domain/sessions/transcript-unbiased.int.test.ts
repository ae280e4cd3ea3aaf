import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../test/partners';
import { call, createSession } from '../../test/session-api';
import { recordings, transcriptEntries } from '../../db/schema';
import { transitionSession } from './transition-session';
import { TranscriptResponse } from '@/lib/contracts/sessions';
import { getTranscript } from '@/lib/contracts/routes/sessions';

/**
 * Issue 30 item 6: a transcript entry decoded without the session's vocabulary (the engine could not build
 * it, e.g. out of memory) is stored as such and answered with the additive `unbiased: true`; entries decoded
 * with it carry no such field. The rows are written the way the finalisation pass writes them (source
 * 'final', `unbiased` from the segment), straight into the database while the server is stopped.
 */
describe('transcript entries decoded without the session vocabulary', () => {
  let server: TestServer;
  let dr: TestProvider;
  let sessionId: string;

  beforeAll(async () => {
    server = await startServer();
    dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    sessionId = (await createSession(server, dr)).ambient_session_id;
    await server.stop();

    const database = await openTestDatabase(server.dataDir);
    const db = database.db;
    const recordingId = crypto.randomUUID();
    await db.insert(recordings).values({ id: recordingId, sessionId, sequenceNumber: 1, blobKey: `seeded/${recordingId}`, sessionOffsetMs: 0, durableBytes: 0 });
    await db.insert(transcriptEntries).values([
      { sessionId, recordingId, position: 0, source: 'final', text: 'i will start lisinopril ten milligrams', speaker: 'CLINICIAN', startOffsetMs: 0, endOffsetMs: 2_000 },
      { sessionId, recordingId, position: 1, source: 'final', text: 'i will start listen april', speaker: 'CLINICIAN', startOffsetMs: 2_500, endOffsetMs: 4_000, unbiased: true },
    ]);
    for (const to of ['ready', 'running', 'completed'] as const) await transitionSession(db, sessionId, to);
    await database.close();
    server = await startServer({ dataDir: server.dataDir });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('answers unbiased: true on the entries decoded without it, and nothing on the others', async () => {
    const r = await call(server, dr, getTranscript, { params: { ambient_session_id: sessionId } });
    expect(r.status).toBe(200);
    const parsed = TranscriptResponse.parse(r.body);
    expect(parsed).toEqual(r.body);
    const entries = parsed.final_transcript;
    expect(entries.map((e) => [e.transcript, e.unbiased])).toEqual([
      ['i will start lisinopril ten milligrams', undefined],
      ['i will start listen april', true],
    ]);
    expect('unbiased' in entries[0]!).toBe(false);
  });
});
