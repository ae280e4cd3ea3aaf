/**
 * Visit audio for the benches: an ACI-BENCH dialogue spoken by espeak-ng with two voices (doctor and
 * patient), resampled by sox to PCM16 16 kHz mono, then cut or looped to the length asked for. Cached in
 * tmp/bench-audio so repeated runs do not synthesise again.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BYTES_PER_MS, SAMPLE_RATE_HZ } from '../../lib/contracts/stream-protocol';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data', 'aci-bench');
const CACHE = path.join(ROOT, 'tmp', 'bench-audio');
const VOICES: Record<string, string[]> = { doctor: ['-v', 'en-us+m3', '-s', '165'], patient: ['-v', 'en-us+f2', '-s', '160'] };

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

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr?.toString().slice(0, 300)}`);
}

/** The whole dialogue as raw PCM16 16 kHz mono, with 300 ms between turns. */
export function synthesiseDialogue(d: Dialogue): Buffer {
  fs.mkdirSync(CACHE, { recursive: true });
  const key = crypto.createHash('sha1').update(JSON.stringify(d.turns)).digest('hex').slice(0, 12);
  const out = path.join(CACHE, `${d.id}-${key}.pcm`);
  if (fs.existsSync(out)) return fs.readFileSync(out);
  const gap = Buffer.alloc(300 * BYTES_PER_MS);
  const parts: Buffer[] = [];
  const tmp = fs.mkdtempSync(path.join(CACHE, 'turn-'));
  try {
    d.turns.forEach((t, i) => {
      const wav = path.join(tmp, `${i}.wav`);
      const raw = path.join(tmp, `${i}.raw`);
      run('espeak-ng', [...VOICES[t.speaker]!, '-w', wav, t.text.replace(/\s+([,.?!])/g, '$1')]);
      run('sox', [wav, '-r', String(SAMPLE_RATE_HZ), '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw]);
      parts.push(fs.readFileSync(raw), gap);
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const pcm = Buffer.concat(parts);
  fs.writeFileSync(out, pcm);
  return pcm;
}

/** Exactly `seconds` of visit audio: the dialogue cut short, or followed by more dialogues until long enough. */
export function visitAudio(seconds: number, dialogues: Dialogue[], start = 0): Buffer {
  const need = seconds * 1000 * BYTES_PER_MS;
  const parts: Buffer[] = [];
  let have = 0;
  for (let i = start; have < need; i++) {
    const pcm = synthesiseDialogue(dialogues[i % dialogues.length]!);
    parts.push(pcm);
    have += pcm.length;
  }
  return Buffer.concat(parts).subarray(0, need);
}
