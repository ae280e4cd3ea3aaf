import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { apiError } from '@/lib/errors';
import { BYTES_PER_MS, bytesToMs } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { getBlobStore } from '../../blob/index';
import { openRecording } from '../../recordings/open-recording';
import { closeRecording } from '../../recordings/close-recording';
import { getOwnedSession } from '../sessions/get-owned-session';
import { transitionSession } from '../sessions/transition-session';
import { endSession } from '../sessions/end-session';
import { sniffAudioFormat } from './sniff-audio-format';
import { decodeAudioFile } from './decode-audio-file';
import { uploadDataKey, type UploadMeta } from './upload-blobs';

const COPY_CHUNK = 1024 * 1024;

/**
 * Turns a fully received upload into the session's next recording and ends capture: the decoded PCM goes
 * into a recording blob exactly as a stream's frames do (openRecording, appends, closeRecording), and the
 * session is ended as the stream's EOF or POST …/end ends it, so the same finalisation pipeline makes the
 * transcript and note. A file that is not accepted audio is 415; one that is but does not decode is 422.
 */
export async function ingestUploadedAudio(app: AppContext, auth: ServicePrincipal, meta: UploadMeta): Promise<{ recordingId: string; audioMs: number }> {
  const blob = getBlobStore(app);
  const sessionId = meta.ambient_session_id;
  const dataKey = uploadDataKey(sessionId, meta.upload_id);
  const format = sniffAudioFormat(await blob.read(dataKey, { start: 0, end: 64 }));
  if (!format) throw apiError('unsupported_media_type', 'file: not audio of an accepted format (WAV, MP3, M4A/AAC, WebM/Opus, Ogg/Opus or FLAC)');
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upload-'));
  try {
    const input = path.join(dir, 'in');
    const output = path.join(dir, 'out.pcm');
    await pipeline(await blob.createReadStream(dataKey), fs.createWriteStream(input));
    const maxSeconds = app.config.ws.maxSessionSeconds;
    await decodeAudioFile(input, output, format, maxSeconds);
    const decoded = (await fsp.stat(output)).size;
    const bytes = decoded - (decoded % 2);
    if (bytes < BYTES_PER_MS * 100) throw apiError('unprocessable_content', `file: holds no audio (${bytesToMs(bytes)} ms decoded)`);
    if (bytes >= maxSeconds * 1000 * BYTES_PER_MS) throw apiError('unprocessable_content', `file: the recording is longer than ${maxSeconds} s (WS_MAX_SESSION_SECONDS)`);

    const session = await getOwnedSession(app, auth, sessionId);
    if (session.status === 'created') await transitionSession(app, sessionId, 'ready', { allowSame: true, reason: 'recording uploaded' });
    const rec = await openRecording(app, auth, sessionId);
    let stored = 0;
    const handle = await fsp.open(output, 'r');
    try {
      const buf = Buffer.alloc(COPY_CHUNK);
      while (stored < bytes) {
        const { bytesRead } = await handle.read(buf, 0, Math.min(COPY_CHUNK, bytes - stored), stored);
        if (!bytesRead) break;
        await blob.append(rec.blobKey, Buffer.from(buf.subarray(0, bytesRead)));
        stored += bytesRead;
      }
    } finally {
      await handle.close();
    }
    await closeRecording(app, { id: rec.id, sessionId, sessionOffsetMs: rec.sessionOffsetMs }, stored, null);
    await endSession(app, auth, sessionId);
    return { recordingId: rec.id, audioMs: bytesToMs(stored) };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
