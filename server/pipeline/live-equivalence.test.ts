import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSpeechEngine } from '../engines/speech/embedded';
import { NoSpeechEngine } from '../engines/speech/index';
import { hasSynthTools, synthesizeDialogue } from '../engines/speech/synth';
import type { SpeechBias, SpeechSegment } from '../engines/speech/types';
import { engineFingerprint } from './engine-fingerprint';

// Decode once (issue 18) rests on this: the live pass's segments for a recording are exactly what the final
// pass's transcribe() of the same audio gives, however the client happened to frame the audio.
const hasLib = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => fs.existsSync(`${d}/libpocketsphinx.so.3`));
const ready = hasLib && hasSynthTools();
if (!ready) console.warn('live equivalence test skipped: apt-get install pocketsphinx pocketsphinx-en-us espeak-ng sox');

const TURNS = [
  { role: 'CLINICIAN' as const, text: 'What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a fever for three days, and my chest hurts when I breathe.' },
  { role: 'CLINICIAN' as const, text: 'I will prescribe amoxicillin five hundred milligrams three times a day for seven days.' },
  { role: 'PATIENT' as const, text: 'Thank you doctor.' },
];
const BIAS: SpeechBias = { terms: ['amoxicillin', 'community acquired pneumonia'], text: 'Productive cough with pleuritic chest pain' };

/** A live stream as the ambient endpoint drives it: one write per client frame, the finals it emits, then end(). */
async function live(engine: EmbeddedSpeechEngine, pcm: Buffer, frameBytes: number, bias?: SpeechBias): Promise<SpeechSegment[]> {
  const finals: SpeechSegment[] = [];
  let partials = 0;
  const s = engine.openStream({ onSegment: (seg) => (seg.isFinal ? finals.push(seg) : partials++), bias });
  for (let o = 0; o < pcm.length; o += frameBytes) s.write(pcm.subarray(o, Math.min(pcm.length, o + frameBytes)));
  await s.end();
  // The live pass asked for partial hypotheses along the way, which the whole-file pass never reads.
  expect(partials).toBeGreaterThan(0);
  return finals;
}

describe.skipIf(!ready)('live pass and final pass', () => {
  let engine: EmbeddedSpeechEngine;
  let pcm: Buffer;
  beforeAll(async () => {
    pcm = synthesizeDialogue(TURNS, 700).pcm;
    engine = new EmbeddedSpeechEngine({ poolSize: 2 });
    await engine.warm();
  }, 240_000);
  afterAll(() => engine?.close());

  it('give the same segments for the same audio, whatever the framing, with and without a session vocabulary', async () => {
    for (const bias of [undefined, BIAS]) {
      const whole = await engine.transcribe(pcm, { bias });
      expect(whole.length).toBeGreaterThan(1);
      // 100 ms frames as the recorder sends them, and an odd size that splits VAD frames and decoder blocks.
      expect(await live(engine, pcm, 3200, bias)).toEqual(whole);
      expect(await live(engine, pcm, 2 * 1237, bias)).toEqual(whole);
    }
  }, 600_000);

  it('fingerprints the embedded engine stably, and never an engine whose live result is not its final one', async () => {
    const fp = await engineFingerprint(engine);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    const other = new EmbeddedSpeechEngine({ poolSize: 1 });
    expect(await engineFingerprint(other)).toBe(fp);
    const stock = new EmbeddedSpeechEngine({ poolSize: 1, lm: 'stock' });
    expect(await engineFingerprint(stock)).not.toBe(fp);
    await Promise.all([other.close(), stock.close()]);
    expect(await engineFingerprint(new NoSpeechEngine())).toBeNull();
  }, 120_000);
});
