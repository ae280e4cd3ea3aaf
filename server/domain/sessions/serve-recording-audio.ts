import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { apiError, forbidden, notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import { systemDb } from '../../db';
import { recordings } from '../../db/schema';
import { getBlobStore } from '../../blob';
import { parseRange } from './range';
import { verifyRecordingSignature, recordingUrlKey } from './recording-url';
import { WAV_HEADER_BYTES, wavHeader, wholeSampleBytes } from './wav';

export interface AudioQuery {
  expires?: string;
  sig?: string;
  download?: string;
}

type Chunk = Buffer | Uint8Array;

async function* concat(parts: Array<Chunk | AsyncIterable<Chunk>>): AsyncGenerator<Uint8Array> {
  for (const p of parts) {
    if (p instanceof Uint8Array) {
      if (p.length > 0) yield p;
    } else {
      for await (const c of p) yield c;
    }
  }
}

async function readPcm(app: AppContext, key: string, start: number, endInclusive: number): Promise<Chunk | AsyncIterable<Chunk>> {
  if (endInclusive < start) return Buffer.alloc(0);
  // The blob store's range end is exclusive.
  return getBlobStore(app).createReadStream(key, { start, end: endInclusive + 1 });
}

/**
 * Serves a recording as WAV (44-byte header + PCM16 16 kHz mono) to whoever holds a valid signed URL.
 * The signature is the authorisation, so every failure of it is the same 403; Range requests are
 * honoured over the whole WAV byte stream so players can seek.
 */
export async function serveRecordingAudio(app: AppContext, recordingId: string, query: AudioQuery, rangeHeader: string | null): Promise<Response> {
  const download = query.download === '1';
  if ((query.download !== undefined && query.download !== '0' && query.download !== '1') || !query.sig || !query.expires || !/^[0-9]{1,12}$/.test(query.expires)) {
    throw forbidden('forbidden: the recording URL is not validly signed');
  }
  const check = verifyRecordingSignature(recordingUrlKey(app), recordingId, Number(query.expires), download, query.sig);
  if (check === 'invalid') throw forbidden('forbidden: the recording URL is not validly signed');
  if (check === 'expired') throw forbidden('forbidden: the recording URL has expired; request a new one');

  const rec = (
    await systemDb(app, 'a signed recording URL: the signature, not a tenant scope, is the authorisation')
      .select({ blobKey: recordings.blobKey })
      .from(recordings)
      .where(eq(recordings.id, recordingId))
      .limit(1)
  )[0];
  if (!rec) throw notFound(`recording ${recordingId} not found`);

  let stored = 0;
  try {
    stored = await getBlobStore(app).size(rec.blobKey);
  } catch {
    stored = 0;
  }
  // The store's size is its durable size (what ACK frames promised), which runs ahead of the row's
  // durable_bytes while a stream is open; served in whole samples.
  const pcmBytes = wholeSampleBytes(Math.max(stored, 0));
  const total = WAV_HEADER_BYTES + pcmBytes;
  const header = wavHeader(pcmBytes);

  const headers: Record<string, string> = {
    'content-type': 'audio/wav',
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'content-disposition': download ? `attachment; filename="recording-${recordingId}.wav"` : 'inline',
  };
  const range = parseRange(rangeHeader, total);
  if (range.kind === 'unsatisfiable') {
    throw apiError('range_not_satisfiable', `range not satisfiable: the recording is ${total} bytes`, { 'content-range': `bytes */${total}` });
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : total - 1;
  const parts: Array<Chunk | AsyncIterable<Chunk>> = [];
  if (start < WAV_HEADER_BYTES) parts.push(header.subarray(start, Math.min(end + 1, WAV_HEADER_BYTES)));
  if (end >= WAV_HEADER_BYTES) {
    parts.push(await readPcm(app, rec.blobKey, Math.max(0, start - WAV_HEADER_BYTES), end - WAV_HEADER_BYTES));
  }
  headers['content-length'] = String(end - start + 1);
  if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end}/${total}`;
  const body = Readable.toWeb(Readable.from(concat(parts))) as ReadableStream<Uint8Array>;
  return new Response(body, { status: range.kind === 'partial' ? 206 : 200, headers });
}
