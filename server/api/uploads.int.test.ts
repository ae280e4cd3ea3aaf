import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession, waitForSessionStatus } from '../test/session-api';
import { contractUrl, testApi } from '../test/api-client';
import { createUpload, getUpload, putUploadChunk } from '@/lib/contracts/routes/uploads';
import { getSessionStatus, getTranscript, listRecordings } from '@/lib/contracts/routes/sessions';
import { spokenFiles } from '../test/audio-files';

const VISIT = [
  { role: 'CLINICIAN' as const, text: 'Good morning. What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a fever for two weeks, and my chest hurts when I cough.' },
];

/** One upload of one session: the parameters of its routes. */
type UploadRef = { ambient_session_id: string; upload_id: string };

const session = (id: string) => ({ params: { ambient_session_id: id } });

async function putChunk(server: TestServer, who: TestProvider, up: UploadRef, offset: number, bytes: Buffer) {
  const res = await testApi(server, who).call(putUploadChunk, {
    params: up,
    query: { offset },
    headers: { 'content-type': 'application/octet-stream' },
    rawBody: new Uint8Array(bytes),
  });
  return { status: res.status, body: res.body as any };
}

/** Sends the first part of a chunk and drops the connection, as a network failure mid-request would. */
async function interruptedPut(server: TestServer, who: TestProvider, up: UploadRef, offset: number, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    // Not through the typed client: fetch cannot send part of a declared body and then drop the connection.
    const req = http.request(`${server.baseUrl}${contractUrl(putUploadChunk, { params: up, query: { offset } })}`, {
      method: 'PUT',
      headers: { ...who.headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => setTimeout(() => req.destroy(), 200));
  });
}

async function upload(server: TestServer, who: TestProvider, sessionId: string, file: Buffer, contentType: string, chunkBytes = 64 * 1024) {
  const created = await call(server, who, createUpload, { ...session(sessionId), body: { size: file.length, content_type: contentType } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const up: UploadRef = { ambient_session_id: sessionId, upload_id: created.body.upload_id };
  let last: { status: number; body: any } = { status: 0, body: null };
  for (let off = 0; off < file.length; off += chunkBytes) {
    last = await putChunk(server, who, up, off, file.subarray(off, off + chunkBytes));
    if (last.status !== 200) return { up, last };
  }
  return { up, last };
}

describe('uploaded recordings', () => {
  let server: TestServer;
  let dr: TestProvider;
  let files: ReturnType<typeof spokenFiles>;

  beforeAll(async () => {
    files = spokenFiles(VISIT, ['mp3']);
    server = await startServer();
    dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('resumes an interrupted upload, across a restart, and makes the visit\'s transcript from it', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const file = files.mp3!;
    const created = await call(server, dr, createUpload, { ...session(id), body: { size: file.length, content_type: 'audio/mpeg', filename: 'visit.mp3' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ambient_session_id: id, offset: 0, size: file.length, state: 'receiving' });
    expect(created.body.max_chunk_bytes).toBeGreaterThan(0);
    const up: UploadRef = { ambient_session_id: id, upload_id: created.body.upload_id };
    const third = Math.ceil(file.length / 3);

    expect((await putChunk(server, dr, up, 0, file.subarray(0, third))).body).toMatchObject({ offset: third, state: 'receiving' });
    // The next chunk is cut off mid-request: none of it is kept.
    await interruptedPut(server, dr, up, third, file.subarray(third, 2 * third));
    expect((await call(server, dr, getUpload, { params: up })).body).toMatchObject({ offset: third, state: 'receiving' });
    // A chunk sent from the wrong place is refused, naming the offset to resume from.
    const wrong = await putChunk(server, dr, up, 0, file.subarray(0, third));
    expect(wrong).toMatchObject({ status: 409, body: { code: 409 } });
    expect(wrong.body.message).toBe(`offset: the upload holds ${third} bytes; send the chunk from offset ${third}`);

    // The bytes are durable: a restarted server resumes from the same offset.
    await server.stop();
    server = await startServer({ dataDir: server.dataDir });
    const resumed = await call(server, dr, getUpload, { params: up });
    expect(resumed.body).toMatchObject({ offset: third, state: 'receiving' });
    await putChunk(server, dr, up, third, file.subarray(third, 2 * third));
    const done = await putChunk(server, dr, up, 2 * third, file.subarray(2 * third));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 'complete', offset: file.length });
    expect(done.body.audio_ms).toBeGreaterThan(3000);

    // It is the session's recording, capture has ended, and the pipeline turns it into a transcript.
    const recs = await call(server, dr, listRecordings, session(id));
    expect(recs.body.recordings.map((r: any) => r.recording_id)).toEqual([done.body.recording_id]);
    expect(await waitForSessionStatus(server, dr, id, ['completed', 'skipped', 'failed'])).toBe('completed');
    const transcript = await call(server, dr, getTranscript, session(id));
    const text = JSON.stringify(transcript.body).toLowerCase();
    expect(text).toMatch(/cough|fever|chest/);
    // Complete: no more bytes, and no second upload for an ended session.
    expect((await putChunk(server, dr, up, file.length, Buffer.from('x'))).status).toBe(409);
    expect((await call(server, dr, createUpload, { ...session(id), body: { size: 10, content_type: 'audio/wav' } })).status).toBe(409);
  }, 900_000);

  it('refuses an unsupported type at creation, and a file that is not audio or is corrupt when it completes', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const text = await call(server, dr, createUpload, { ...session(id), body: { size: 10, content_type: 'text/plain', filename: 'notes.txt' } });
    expect(text).toMatchObject({ status: 415, body: { code: 415 } });
    expect(text.body.message).toMatch(/^content_type: text\/plain is not an accepted audio type/);
    const size = await call(server, dr, createUpload, { ...session(id), body: { size: 0, content_type: 'audio/wav' } });
    expect(size).toMatchObject({ status: 400 });
    expect(size.body.message).toMatch(/^size: /);

    // Declared as MP3, but a text file: 415 naming the file, and the upload is over.
    const notAudio = await upload(server, dr, id, Buffer.from('Subjective: cough for three days.\n'.repeat(20)), 'audio/mpeg');
    expect(notAudio.last).toMatchObject({ status: 415, body: { code: 415 } });
    expect(notAudio.last.body.message).toMatch(/^file: not audio of an accepted format/);
    expect((await call(server, dr, getUpload, { params: notAudio.up })).body).toMatchObject({ state: 'failed', error: { code: 415 } });
    expect((await putChunk(server, dr, notAudio.up, 0, Buffer.from('x'))).status).toBe(409);

    // A WAV whose header promises audio that is not there: 422 naming the file.
    const wav = files.wav;
    const corrupt = Buffer.concat([wav.subarray(0, 12), Buffer.from('garbage!'.repeat(64))]);
    const bad = await upload(server, dr, id, corrupt, 'audio/wav');
    expect(bad.last).toMatchObject({ status: 422, body: { code: 422 } });
    expect(bad.last.body.message).toMatch(/^file: /);

    // A chunk past the declared size is refused naming the body; an unparsable offset names the offset.
    const created = await call(server, dr, createUpload, { ...session(id), body: { size: 4, content_type: 'audio/flac' } });
    const p: UploadRef = { ambient_session_id: id, upload_id: created.body.upload_id };
    const over = await putChunk(server, dr, p, 0, Buffer.from('fLaC+more'));
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/^body: the chunk runs past the declared size/);
    const res = await call(server, dr, putUploadChunk, { params: p, query: { offset: 'minus' }, rawBody: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^query parameter offset: /);
    // The session still takes audio: the failed uploads changed nothing.
    expect((await call(server, dr, getSessionStatus, session(id))).body.status).toBe('created');
  }, 120_000);

  it('refuses READONLY partners and hides another tenant\'s uploads', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const created = await call(server, dr, createUpload, { ...session(id), body: { size: 8, content_type: 'audio/wav' } });
    const up: UploadRef = { ambient_session_id: id, upload_id: created.body.upload_id };

    const reader = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl, { access_level: 'READONLY' }));
    const roCreate = await call(server, reader, createUpload, { ...session(id), body: { size: 8, content_type: 'audio/wav' } });
    expect(roCreate).toMatchObject({ status: 403, body: { code: 403 } });
    expect((await putChunk(server, reader, up, 0, Buffer.from('RIFF'))).status).toBe(403);

    const other = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const foreignCreate = await call(server, other, createUpload, { ...session(id), body: { size: 8, content_type: 'audio/wav' } });
    expect(foreignCreate).toMatchObject({ status: 404, body: { code: 404 } });
    expect((await call(server, other, getUpload, { params: up })).status).toBe(404);
    expect((await putChunk(server, other, up, 0, Buffer.from('RIFF'))).status).toBe(404);
    // Nothing of theirs reached the upload.
    expect((await call(server, dr, getUpload, { params: up })).body).toMatchObject({ offset: 0, state: 'receiving' });
    // An upload id of another session of the caller's is not found either.
    const { ambient_session_id: id2 } = await createSession(server, dr);
    expect((await call(server, dr, getUpload, { params: { ambient_session_id: id2, upload_id: created.body.upload_id } })).status).toBe(404);
  }, 120_000);
});
