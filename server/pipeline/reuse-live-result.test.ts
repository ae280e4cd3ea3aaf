import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../blob/fs-store';
import { EmbeddedSpeechEngine } from '../engines/speech/embedded';
import { NoSpeechEngine } from '../engines/speech/index';
import type { SpeechEngine, SpeechSegment } from '../engines/speech/types';
import type { AppContext } from '../context';
import { engineFingerprint } from './engine-fingerprint';
import { biasDigest, liveResultKey, type LiveResult } from './live-result';
import { reuseLiveResult } from './reuse-live-result';

// The final pass takes the live pass's segments only when they are provably its own result; any doubt
// (other audio, vocabulary or engine, no finished live pass) means decoding again.
const pcm = crypto.randomBytes(32_000);
const SEGMENTS: SpeechSegment[] = [{ text: 'cough and fever', startMs: 120, endMs: 900, isFinal: true, words: [], lang: 'en' }];
const BIAS = { terms: ['amoxicillin'] };
const KEY = 'sessions/s/0001-r.pcm';
const log = { warn() {}, info() {} } as unknown as AppContext['log'];
let dir: string;
let blob: FsBlobStore;
const embedded = new EmbeddedSpeechEngine({ poolSize: 1 });

function app(engine: SpeechEngine) {
  return { services: { blob: { get: () => blob }, speech: { get: () => engine } }, log } as unknown as Pick<AppContext, 'services' | 'log'>;
}

async function keep(over: Partial<LiveResult> = {}): Promise<void> {
  await blob.delete(liveResultKey(KEY));
  const engine = (await engineFingerprint(embedded))!;
  const result: LiveResult = { v: 1, engine, bias: biasDigest(BIAS), bytes: pcm.length, sha256: crypto.createHash('sha256').update(pcm).digest('hex'), segments: SEGMENTS, ...over };
  await blob.append(liveResultKey(KEY), Buffer.from(JSON.stringify(result)));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-result-'));
  blob = new FsBlobStore(dir);
});
afterAll(async () => {
  await blob.close();
  await embedded.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reuseLiveResult', () => {
  const rec = { blobKey: KEY, liveTranscriptMs: 1000, pcm };

  it('takes the live segments for the same engine, vocabulary and bytes', async () => {
    await keep();
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toEqual(SEGMENTS);
  });

  it('decodes again when anything differs or the live pass did not finish', async () => {
    await keep();
    expect(await reuseLiveResult(app(embedded), rec, { terms: ['azithromycin'] })).toBeNull();
    expect(await reuseLiveResult(app(embedded), rec, undefined)).toBeNull();
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: pcm.subarray(0, pcm.length - 2) }, BIAS)).toBeNull();
    const flipped = Buffer.from(pcm);
    flipped[100] ^= 1;
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: flipped }, BIAS)).toBeNull();
    expect(await reuseLiveResult(app(embedded), { ...rec, liveTranscriptMs: null }, BIAS)).toBeNull();
    expect(await reuseLiveResult(app(new NoSpeechEngine()), rec, BIAS)).toBeNull();
    await keep({ engine: 'another build' });
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toBeNull();
    await blob.delete(liveResultKey(KEY));
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toBeNull();
  });
});
