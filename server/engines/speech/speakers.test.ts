import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignSpeakerRoles, autocorrelation, textCueScore, voiceFeatures } from './speakers.js';
import { hasSynthTools, synthesizeDialogue, type SynthDialogue } from './synth.js';
import { EmbeddedSpeechEngine } from './embedded.js';
import type { SpeechSegment } from './types.js';

const TURNS = [
  { role: 'CLINICIAN' as const, text: 'Hi, how are you feeling today?' },
  { role: 'PATIENT' as const, text: 'Not great. My knee hurts when I walk up the stairs.' },
  { role: 'CLINICIAN' as const, text: 'How long has that been going on?' },
  { role: 'PATIENT' as const, text: 'I have had the pain for about three weeks now.' },
  { role: 'CLINICIAN' as const, text: 'I am going to prescribe some ibuprofen and order an x-ray of your knee.' },
  { role: 'PATIENT' as const, text: 'Okay, thank you doctor.' },
];

const tools = hasSynthTools();
const hasPocketsphinx = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => fs.existsSync(`${d}/libpocketsphinx.so.3`));
if (!tools) console.warn('speaker tests skipped: apt-get install espeak-ng sox');

/** A low voice whose first formant rings: gliding ~90 Hz glottal pulses through a narrow 350 Hz resonance. */
function ringingVoice(f0: number, formant: number, seconds: number): Int16Array {
  const rate = 16000;
  const out = new Int16Array(rate * seconds);
  const r = Math.exp((-Math.PI * 30) / rate);
  const [a1, a2] = [2 * r * Math.cos((2 * Math.PI * formant) / rate), -r * r];
  let [y1, y2, next, k] = [0, 0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    let x = 0;
    if (i >= next) {
      x = 1;
      k++;
      next = i + Math.round((rate / f0) * (1 + 0.08 * Math.sin(k / 6)));
    }
    const y = x + a1 * y1 + a2 * y2;
    [y2, y1] = [y1, y];
    out[i] = Math.round(Math.max(-1, Math.min(1, y / 20)) * 20000);
  }
  return out;
}

describe('voice features', () => {
  it('reads the pitch of a low voice, not the period of its first formant', () => {
    // Before centre clipping this read 348 Hz, and D2N085's doctor was taken for the patient.
    const f0 = Math.exp(voiceFeatures(ringingVoice(90, 350, 1))![0]!);
    expect(f0).toBeGreaterThan(80);
    expect(f0).toBeLessThan(100);
  });
});

describe('autocorrelation', () => {
  it('equals the sum over the frame at every lag a pitch can have (computed through the power spectrum)', () => {
    let seed = 7;
    const frame = Float64Array.from({ length: 512 }, (_, i) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.sin(i / 9) * 0.5 + (seed / 2 ** 31 - 0.5) * 0.2;
    });
    const fast = autocorrelation(frame);
    for (let lag = 0; lag < 260; lag++) {
      let direct = 0;
      for (let i = 0; i + lag < frame.length; i++) direct += frame[i]! * frame[i + lag]!;
      expect(Math.abs(fast[lag]! - direct)).toBeLessThan(1e-9 * Math.max(1, Math.abs(direct)));
    }
  });
});

describe('text cues', () => {
  it('scores clinician and patient phrasing with opposite signs', () => {
    expect(textCueScore('how are you feeling today')).toBeGreaterThan(0);
    expect(textCueScore("i'm going to prescribe lisinopril")).toBeGreaterThan(0);
    expect(textCueScore('my knee hurts')).toBeLessThan(0);
    expect(textCueScore('the')).toBe(0);
  });

  it('falls back to cues alone when there is no usable audio', () => {
    const seg = (text: string): SpeechSegment => ({ text, startMs: 0, endMs: 0, isFinal: true, words: [] });
    const out = assignSpeakerRoles([seg('how are you feeling today'), seg('my back hurts'), seg('the')], Buffer.alloc(0));
    expect(out.map((s) => s.speaker)).toEqual(['CLINICIAN', 'PATIENT', 'UNKNOWN']);
  });
});

describe.skipIf(!tools)('speaker roles on a synthesised two-voice visit', () => {
  let dlg: SynthDialogue;
  beforeAll(() => {
    dlg = synthesizeDialogue(TURNS);
  });

  it('clusters the two voices and names them from what they say', () => {
    const segs: SpeechSegment[] = dlg.turns.map((t) => ({ text: t.text.toLowerCase(), startMs: t.startMs, endMs: t.endMs, isFinal: true, words: [] }));
    const out = assignSpeakerRoles(segs, dlg.pcm);
    expect(out.map((s) => s.speaker)).toEqual(TURNS.map((t) => t.role));
  });

  it('keeps acoustic clusters consistent even when one turn has no cue', () => {
    // "Okay, thank you doctor." reworded to carry no cue: the voice alone must decide.
    const segs: SpeechSegment[] = dlg.turns.map((t, i) => ({ text: i === 5 ? 'the' : t.text.toLowerCase(), startMs: t.startMs, endMs: t.endMs, isFinal: true, words: [] }));
    expect(assignSpeakerRoles(segs, dlg.pcm)[5]!.speaker).toBe('PATIENT');
  });

  describe.skipIf(!hasPocketsphinx)('with the embedded recogniser', () => {
    let engine: EmbeddedSpeechEngine;
    beforeAll(() => {
      engine = new EmbeddedSpeechEngine({ poolSize: 1 });
    });
    afterAll(() => engine.close());

    it('tags recognised segments by the speaker whose turn they overlap', async () => {
      const segs = assignSpeakerRoles(await engine.transcribe(dlg.pcm), dlg.pcm);
      expect(segs.length).toBeGreaterThanOrEqual(4);
      let correct = 0;
      for (const s of segs) {
        const mid = (s.startMs + s.endMs) / 2;
        const truth = dlg.turns.find((t) => mid >= t.startMs - 300 && mid <= t.endMs + 300);
        if (truth?.role === s.speaker) correct++;
      }
      expect(correct / segs.length).toBeGreaterThanOrEqual(0.8);
    }, 300_000);
  });
});
