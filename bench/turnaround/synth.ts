/**
 * Visit audio for the benches: an ACI-BENCH dialogue spoken with two voices (doctor and patient), resampled
 * by sox to PCM16 16 kHz mono, then cut or looped to the length asked for. Two voice sets: espeak-ng's
 * formant voices (the benches' first input), and Festival's voices made from recorded human speech, which
 * is nearer what a clinic's microphone hears; the recogniser's CPU differs between them, so a bench reports
 * each set separately. Cached in tmp/bench-audio so repeated runs do not synthesise again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BYTES_PER_MS } from '../../lib/contracts/stream-protocol';
import { NATURAL_VOICES, synthesize } from '../../server/engines/speech/synth';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data', 'aci-bench');
const CACHE = path.join(ROOT, 'tmp', 'bench-audio');
/** espeak-ng's formant voices, at the rates the benches have always used. */
const ESPEAK = { doctor: { voice: 'en-us+m3', speed: 165 }, patient: { voice: 'en-us+f2', speed: 160 } } as const;

export const VOICE_SETS = ['espeak', 'festival'] as const;
export type VoiceSet = (typeof VOICE_SETS)[number];

export interface Dialogue {
  id: string;
  turns: { speaker: 'doctor' | 'patient'; text: string }[];
}

export function loadDialogues(file = 'valid.jsonl'): Dialogue[] {
  return fs
    .readFileSync(path.join(DATA, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const r = JSON.parse(line) as { encounter_id: string; dialogue: string };
      const turns = r.dialogue
        .split('\n')
        .map((l) => /^\[(doctor|patient|patient_guest|doctor_guest)\]\s*(.*)$/.exec(l.trim()))
        .filter((m): m is RegExpExecArray => m !== null && m[2]!.trim().length > 0)
        .map((m) => ({ speaker: (m[1]!.startsWith('doctor') ? 'doctor' : 'patient') as 'doctor' | 'patient', text: m[2]! }));
      return { id: r.encounter_id, turns };
    });
}

/** One turn as raw PCM16 16 kHz mono, cached by its voice and words. */
function turnAudio(text: string, speaker: 'doctor' | 'patient', voices: VoiceSet): Buffer {
  const key = crypto.createHash('sha1').update(JSON.stringify([voices, speaker, text])).digest('hex').slice(0, 16);
  const out = path.join(CACHE, 'turns', `${key}.pcm`);
  if (fs.existsSync(out)) return fs.readFileSync(out);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(CACHE, 'turn-'));
  try {
    const pcm =
      voices === 'festival'
        ? synthesize(text, speaker === 'doctor' ? NATURAL_VOICES.CLINICIAN : NATURAL_VOICES.PATIENT, { dir: tmp })
        : synthesize(text, ESPEAK[speaker].voice, { speed: ESPEAK[speaker].speed, dir: tmp });
    fs.writeFileSync(out, pcm);
    return pcm;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The dialogue as raw PCM16 16 kHz mono, with 300 ms between turns: all of it, or its first turns up to
 * `atLeastBytes` (Festival's voices take seconds a turn, and a bench needs a visit's first minute, not all of it).
 */
export function synthesiseDialogue(d: Dialogue, voices: VoiceSet = 'espeak', atLeastBytes = Infinity): Buffer {
  const gap = Buffer.alloc(300 * BYTES_PER_MS);
  const parts: Buffer[] = [];
  let have = 0;
  for (const t of d.turns) {
    if (have >= atLeastBytes) break;
    const pcm = turnAudio(t.text.replace(/\s+([,.?!])/g, '$1'), t.speaker, voices);
    parts.push(pcm, gap);
    have += pcm.length + gap.length;
  }
  return Buffer.concat(parts);
}

/** Exactly `seconds` of visit audio: the dialogue cut short, or followed by more dialogues until long enough. */
export function visitAudio(seconds: number, dialogues: Dialogue[], start = 0, voices: VoiceSet = 'espeak'): Buffer {
  const need = seconds * 1000 * BYTES_PER_MS;
  const parts: Buffer[] = [];
  let have = 0;
  for (let i = start; have < need; i++) {
    const pcm = synthesiseDialogue(dialogues[i % dialogues.length]!, voices, need - have);
    parts.push(pcm);
    have += pcm.length;
  }
  return Buffer.concat(parts).subarray(0, need);
}
