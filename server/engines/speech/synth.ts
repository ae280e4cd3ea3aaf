/**
 * Speech synthesis for tests and benchmarks that need audio whose words and speakers are known. Not used
 * on any product path. Three Debian synthesisers, named `<synth>:<voice>`:
 *   espeak:<voice>    espeak-ng formant voices (a bare voice name means espeak, as before)
 *   festival:<voice>  Festival: kal_diphone, ked_diphone (diphones cut from recorded speech) and
 *                     cmu_us_slt_arctic_hts (HMM voice trained on recorded speech)
 *   flite:<voice>     Flite: slt, rms, awb (statistical voices trained on CMU ARCTIC recordings), kal16
 * Every output goes through sox to PCM16 mono 16 kHz, as a real capture chain would resample.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeWav, toPcm16Mono16k } from './audio.js';
import type { SpeakerRole } from './types.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

const TOOL: Record<string, string[]> = { espeak: ['espeak-ng', '--version'], festival: ['text2wave', '-h'], flite: ['flite', '-lv'] };

function has(cmd: string[]): boolean {
  try {
    execFileSync(cmd[0]!, cmd.slice(1), { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** espeak-ng and sox, the minimum every caller needs. */
export function hasSynthTools(): boolean {
  return has(TOOL.espeak!) && has(['sox', '--version']);
}

/** Whether the synthesiser a voice names is installed (scripts/setup.sh installs all three). */
export function hasVoice(voice: string): boolean {
  const { synth } = parseVoice(voice);
  return has(['sox', '--version']) && has(TOOL[synth]!);
}

export const VOICES = { CLINICIAN: 'en-us+m3', PATIENT: 'en-us+f3' } as const;

/** Voices built from recorded human speech, by synthesiser; the bench reports each set separately. */
export const NATURAL_VOICE_SETS = {
  festival: ['festival:kal_diphone', 'festival:ked_diphone', 'festival:cmu_us_slt_arctic_hts'],
  flite: ['flite:rms', 'flite:slt', 'flite:awb'],
} as const;

/** A clinician/patient pair of natural voices (a male Festival diphone voice and a female HMM voice). */
export const NATURAL_VOICES = { CLINICIAN: 'festival:kal_diphone', PATIENT: 'festival:cmu_us_slt_arctic_hts' } as const;

export function parseVoice(voice: string): { synth: 'espeak' | 'festival' | 'flite'; name: string } {
  const m = /^(espeak|festival|flite):(.+)$/.exec(voice);
  if (!m) return { synth: 'espeak', name: voice };
  if (!/^[A-Za-z0-9_+-]+$/.test(m[2]!)) throw new Error(`invalid voice name: ${m[2]}`);
  return { synth: m[1] as 'espeak' | 'festival' | 'flite', name: m[2]! };
}

/** Speaks text to PCM16 mono 16 kHz with the named voice (see the file comment for the forms). */
export function synthesize(text: string, voice = 'en-us', opts: { speed?: number; dir?: string } = {}): Buffer {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'speech-synth-'));
  const stem = path.join(dir, `s${process.pid}-${Math.random().toString(36).slice(2)}`);
  const raw = `${stem}.wav`;
  const txt = `${stem}.txt`;
  const out = `${stem}.16k.wav`;
  const { synth, name } = parseVoice(voice);
  try {
    if (synth === 'espeak') {
      execFileSync('espeak-ng', ['-v', name, '-s', String(opts.speed ?? 160), '-w', raw, '--', text], { stdio: 'ignore' });
    } else if (synth === 'festival') {
      fs.writeFileSync(txt, text);
      execFileSync('text2wave', ['-eval', `(voice_${name})`, txt, '-o', raw], { stdio: 'ignore' });
    } else {
      fs.writeFileSync(txt, text);
      execFileSync('flite', ['-voice', name, '-f', txt, '-o', raw], { stdio: 'ignore' });
    }
    execFileSync('sox', [raw, '-r', String(SAMPLE_RATE_HZ), '-c', '1', '-b', '16', out], { stdio: 'ignore' });
    return toPcm16Mono16k(decodeWav(fs.readFileSync(out)));
  } finally {
    for (const f of [raw, txt, out]) fs.rmSync(f, { force: true });
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
    const gap = Buffer.alloc(Math.round((pauseMs * SAMPLE_RATE_HZ) / 1000) * 2);
    const parts: Buffer[] = [gap];
    const out: SynthDialogue['turns'] = [];
    let samples = gap.length / 2;
    for (const t of turns) {
      const pcm = synthesize(t.text, t.role === 'PATIENT' ? voices.PATIENT : voices.CLINICIAN, { dir });
      out.push({ ...t, startMs: (samples * 1000) / SAMPLE_RATE_HZ, endMs: ((samples + pcm.length / 2) * 1000) / SAMPLE_RATE_HZ });
      parts.push(pcm, gap);
      samples += pcm.length / 2 + gap.length / 2;
    }
    return { pcm: Buffer.concat(parts), turns: out };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
