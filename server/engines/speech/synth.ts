/**
 * Speech synthesis with Debian's espeak-ng and sox, for tests and benchmarks that need audio whose words
 * and speakers are known. Not used on any product path.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeWav, toPcm16Mono16k } from './audio.js';
import type { SpeakerRole } from './types.js';

export function hasSynthTools(): boolean {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    execFileSync('sox', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const VOICES = { CLINICIAN: 'en-us+m3', PATIENT: 'en-us+f3' } as const;

/** Speaks text to PCM16 mono 16 kHz; sox does the rate conversion as a real capture chain would. */
export function synthesize(text: string, voice = 'en-us', opts: { speed?: number; dir?: string } = {}): Buffer {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'speech-synth-'));
  const raw = path.join(dir, `s${process.pid}-${Math.random().toString(36).slice(2)}.wav`);
  const out = `${raw}.16k.wav`;
  try {
    execFileSync('espeak-ng', ['-v', voice, '-s', String(opts.speed ?? 160), '-w', raw, '--', text], { stdio: 'ignore' });
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', out], { stdio: 'ignore' });
    return toPcm16Mono16k(decodeWav(fs.readFileSync(out)));
  } finally {
    fs.rmSync(raw, { force: true });
    fs.rmSync(out, { force: true });
    if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Turn {
  role: SpeakerRole;
  text: string;
}

export interface SynthDialogue {
  pcm: Buffer;
  /** Where each turn lies in pcm. */
  turns: (Turn & { startMs: number; endMs: number })[];
}

/** Joins turns spoken by two voices with a pause between them, as in a recorded visit. */
export function synthesizeDialogue(turns: Turn[], pauseMs = 800, voices: Record<'CLINICIAN' | 'PATIENT', string> = VOICES): SynthDialogue {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-dlg-'));
  try {
    const gap = Buffer.alloc(Math.round((pauseMs * 16000) / 1000) * 2);
    const parts: Buffer[] = [gap];
    const out: SynthDialogue['turns'] = [];
    let samples = gap.length / 2;
    for (const t of turns) {
      const pcm = synthesize(t.text, t.role === 'PATIENT' ? voices.PATIENT : voices.CLINICIAN, { dir });
      out.push({ ...t, startMs: (samples * 1000) / 16000, endMs: ((samples + pcm.length / 2) * 1000) / 16000 });
      parts.push(pcm, gap);
      samples += pcm.length / 2 + gap.length / 2;
    }
    return { pcm: Buffer.concat(parts), turns: out };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
