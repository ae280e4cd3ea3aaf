import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../blob/fs-store';
import { EmbeddedSpeechEngine } from '../engines/speech/embedded';
import { NoSpeechEngine } from '../engines/speech/index';
import type { DecodedPrefix, SpeechEngine, SpeechSegment } from '../engines/speech/types';
import type { AppContext } from '../context';
import { engineFingerprint } from './engine-fingerprint';
import { biasDigest, liveResultKey, type LiveResult } from './live-result';
import { reuseLiveResult } from './reuse-live-result';

// The final pass takes what the live pass decoded only when it is provably part of its own result; any doubt
// (other audio, vocabulary or engine, no live result) means decoding all again.
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

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const DECODED: DecodedPrefix = { utterances: 3, bytes: pcm.length, sha256: sha(pcm), complete: true, segments: SEGMENTS };

async function keep(over: Partial<LiveResult> = {}): Promise<void> {
  await blob.delete(liveResultKey(KEY));
  const engine = (await engineFingerprint(embedded))!;
  const result: LiveResult = { v: 2, engine, bias: biasDigest(BIAS), decoded: DECODED, ...over };
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
  const rec = { blobKey: KEY, pcm };

  it('takes what the live pass decoded for the same engine, vocabulary and bytes', async () => {
    await keep();
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toEqual(DECODED);
  });

  it('takes a cut-off live pass whose bytes begin the recording', async () => {
    const part = { ...DECODED, utterances: 1, bytes: 20_000, sha256: sha(pcm.subarray(0, 20_000)), complete: false };
    await keep({ decoded: part });
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toEqual(part);
    const flipped = Buffer.from(pcm);
    flipped[30_000] ^= 1;
    // A change after its bytes does not touch what it decoded.
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: flipped }, BIAS)).toEqual(part);
    flipped[100] ^= 1;
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: flipped }, BIAS)).toBeNull();
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: pcm.subarray(0, 10_000) }, BIAS)).toBeNull();
  });

  it('takes of a finished pass, for audio that goes on past it (the next part joined), only the utterances its audio ended', async () => {
    const ended = { utterances: 2, bytes: 24_000, sha256: sha(pcm.subarray(0, 24_000)), segments: 1 };
    const finished = { ...DECODED, endedByAudio: ended };
    await keep({ decoded: finished });
    const joined = Buffer.concat([pcm, crypto.randomBytes(6_400)]);
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: joined }, BIAS)).toEqual({ utterances: 2, bytes: 24_000, sha256: ended.sha256, complete: false, segments: SEGMENTS });
    // The audio it ended must be the same bytes; a finished pass that ended none leaves nothing to take.
    const flipped = Buffer.from(joined);
    flipped[100] ^= 1;
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: flipped }, BIAS)).toBeNull();
    await keep();
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: joined }, BIAS)).toBeNull();
    await keep({ decoded: { ...finished, endedByAudio: { ...ended, segments: 5 } } });
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: joined }, BIAS)).toBeNull();
    // Its own audio alone still takes the whole result.
    await keep({ decoded: finished });
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toEqual(finished);
  });

  it('decodes all again when anything differs or there is no live result', async () => {
    await keep();
    expect(await reuseLiveResult(app(embedded), rec, { terms: ['azithromycin'] })).toBeNull();
    expect(await reuseLiveResult(app(embedded), rec, undefined)).toBeNull();
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: pcm.subarray(0, pcm.length - 2) }, BIAS)).toBeNull();
    const flipped = Buffer.from(pcm);
    flipped[100] ^= 1;
    expect(await reuseLiveResult(app(embedded), { ...rec, pcm: flipped }, BIAS)).toBeNull();
    expect(await reuseLiveResult(app(new NoSpeechEngine()), rec, BIAS)).toBeNull();
    await keep({ engine: 'another build' });
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toBeNull();
    await keep({ v: 1 } as unknown as Partial<LiveResult>);
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toBeNull();
    await blob.delete(liveResultKey(KEY));
    expect(await reuseLiveResult(app(embedded), rec, BIAS)).toBeNull();
  });
});
