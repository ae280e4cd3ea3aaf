import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSpeechEngine } from '../engines/speech/embedded';
import { NoSpeechEngine } from '../engines/speech/index';
import { hasSynthTools, synthesizeDialogue } from '../engines/speech/synth';
import type { DecodedPrefix, SpeechBias, SpeechSegment } from '../engines/speech/types';
import { engineFingerprint } from '../recordings/engine-fingerprint';
import { prefixEndedByAudio } from '../recordings/reuse-live-result';

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

/**
 * A live stream as the ambient endpoint drives it: one write per client frame, then end(); the finals it
 * emitted and what it reports as decoded.
 */
async function live(engine: EmbeddedSpeechEngine, pcm: Buffer, frameBytes: number, bias?: SpeechBias): Promise<{ finals: SpeechSegment[]; decoded: DecodedPrefix }> {
  const finals: SpeechSegment[] = [];
  let partials = 0;
  // Written faster than spoken: partials are asked for anyway, to show they leave the finals unchanged.
  const s = engine.openStream({ onSegment: (seg) => (seg.isFinal ? finals.push(seg) : partials++), bias, partials: 'every' });
  for (let o = 0; o < pcm.length; o += frameBytes) s.write(pcm.subarray(o, Math.min(pcm.length, o + frameBytes)));
  await s.end();
  // The live pass asked for partial hypotheses along the way, which the whole-file pass never reads.
  expect(partials).toBeGreaterThan(0);
  return { finals, decoded: s.decoded!()! };
}

describe.skipIf(!ready)('live pass and final pass', () => {
  let engine: EmbeddedSpeechEngine;
  let pcm: Buffer;
  let turns: ReturnType<typeof synthesizeDialogue>['turns'];
  /** transcribe() of the whole audio, without and with the session vocabulary. */
  const wholes = new Map<SpeechBias | undefined, SpeechSegment[]>();
  /** A live pass over all of the audio in 100 ms frames without the vocabulary: decoded once, read by two tests. */
  let finished: Awaited<ReturnType<typeof live>>;
  beforeAll(async () => {
    ({ pcm, turns } = synthesizeDialogue(TURNS, 700));
    engine = new EmbeddedSpeechEngine({ poolSize: 2 });
    await engine.warm();
    for (const bias of [undefined, BIAS]) wholes.set(bias, await engine.transcribe(pcm, { bias }));
    finished = await live(engine, pcm, 3200);
  }, 480_000);
  afterAll(() => engine?.close());

  it('give the same segments for the same audio, whatever the framing, with and without a session vocabulary', async () => {
    // 100 ms frames as the recorder sends them, and an odd size that splits VAD frames and decoder blocks;
    // one framing per vocabulary keeps the suite's decoding time down, and each still meets both.
    expect(wholes.get(undefined)!.length).toBeGreaterThan(1);
    expect(finished.finals).toEqual(wholes.get(undefined));
    expect((await live(engine, pcm, 2 * 1237, BIAS)).finals).toEqual(wholes.get(BIAS));
  }, 600_000);

  it('take a live pass cut off part-way: its utterances are replayed, the rest decoded, and the result is the same', async () => {
    for (const bias of [undefined, BIAS]) {
      const whole = wholes.get(bias)!;
      // The first ~60 % of the audio, then the stream is dropped once two utterances are final, as when a
      // connection is lost or the live pass is cut off behind the audio.
      let finals = 0;
      let twoFinal!: () => void;
      const two = new Promise<void>((r) => (twoFinal = r));
      const s = engine.openStream({ onSegment: (seg) => seg.isFinal && ++finals === 2 && twoFinal(), bias });
      const cut = Math.floor((pcm.length * 0.6) / 3200) * 3200;
      for (let o = 0; o < cut; o += 3200) s.write(pcm.subarray(o, o + 3200));
      await two;
      s.close();
      const prefix = s.decoded!()!;
      expect(prefix.complete).toBe(false);
      expect(prefix.utterances).toBeGreaterThanOrEqual(2);
      expect(prefix.bytes).toBeLessThanOrEqual(cut);
      expect(prefix.segments).toEqual(whole.slice(0, prefix.segments.length));
      expect(await engine.transcribe(pcm, { bias, decoded: prefix })).toEqual(whole);
      if (bias) continue;
      // A prefix's words are taken as given: wrong words in it show in the result, so the replay did run.
      const marked: DecodedPrefix = { ...prefix, segments: prefix.segments.map((seg) => ({ ...seg, text: `${seg.text} (live)` })) };
      const resumed = await engine.transcribe(pcm, { bias, decoded: marked });
      expect(resumed.slice(0, prefix.segments.length).every((seg) => seg.text.endsWith('(live)'))).toBe(true);
      expect(resumed.slice(prefix.segments.length)).toEqual(whole.slice(prefix.segments.length));
    }
  }, 600_000);

  it('take a live pass that finished as the whole result, only for audio of exactly its length', async () => {
    const { finals, decoded: done } = finished;
    expect(done).toMatchObject({ complete: true, bytes: pcm.length });
    expect(done.segments).toEqual(finals);
    const marked = { ...done, segments: [{ ...finals[0]!, text: 'taken as is' }] };
    expect(await engine.transcribe(pcm, { decoded: marked })).toEqual(marked.segments);
    // Audio of another length: its last utterance may end elsewhere than the one the live pass saw, so all
    // is decoded (a short piece, to keep the test quick).
    const other = pcm.subarray(0, Math.floor(pcm.length / 4 / 2) * 2);
    expect(await engine.transcribe(other, { decoded: marked })).toEqual(await engine.transcribe(other));
  }, 600_000);

  it('take a finished live pass of a part the next part continues (a reconnect mid-word): only the utterances its own audio ended are replayed, and the joined audio gives the same result', async () => {
    const whole = wholes.get(undefined)!;
    // The connection dropped in the middle of the third turn; the next part resends from there.
    const t = turns[2]!;
    const split = Math.round((t.startMs + t.endMs) / 2) * 32;
    const { decoded: done } = await live(engine, pcm.subarray(0, split), 3200);
    expect(done).toMatchObject({ complete: true, bytes: split });
    const prefix = prefixEndedByAudio(done)!;
    expect(prefix.complete).toBe(false);
    expect(prefix.utterances).toBeGreaterThanOrEqual(2);
    // The utterance the part's end closed is not taken: with the next part's audio it goes on.
    expect(prefix.utterances).toBeLessThan(done.utterances);
    expect(prefix.segments).toEqual(whole.slice(0, prefix.segments.length));
    const marked: DecodedPrefix = { ...prefix, segments: prefix.segments.map((seg) => ({ ...seg, text: `${seg.text} (live)` })) };
    const resumed = await engine.transcribe(pcm, { decoded: marked });
    expect(resumed.slice(0, prefix.segments.length).every((seg) => seg.text.endsWith('(live)'))).toBe(true);
    expect(resumed.slice(prefix.segments.length)).toEqual(whole.slice(prefix.segments.length));
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
