/**
 * Dialogue audio for the clinical bench, from the speech engine's synthesis helper
 * (server/engines/speech/synth.ts): its natural voices where it offers them, else its default pair.
 * Cached in tmp/bench-clinical by dialogue, voices and text, so repeated runs do not synthesise again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as synth from '../../server/engines/speech/synth';

const CACHE = path.resolve(import.meta.dirname, '../../tmp/bench-clinical');

export interface Voices { doctor: string; patient: string }

type SynthModule = typeof synth & { NATURAL_VOICES?: Record<'CLINICIAN' | 'PATIENT', string> };

/** `--voices a,b` when given; else the helper's natural pair; else its default pair. */
export async function voicesInUse(flag: string): Promise<Voices> {
  if (flag) {
    const [doctor, patient] = flag.split(',');
    return { doctor: doctor!, patient: patient ?? doctor! };
  }
  const pair = (synth as SynthModule).NATURAL_VOICES ?? synth.VOICES;
  return { doctor: pair.CLINICIAN, patient: pair.PATIENT };
}

export function speakDialogue(id: string, dialogue: string, voices: Voices): { pcm: Buffer; ms: number } {
  const turns = dialogue
    .split('\n')
    .map((l) => /^\[(doctor|patient|patient_guest|doctor_guest)\]\s*(.*)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.trim().length > 0)
    .map((m) => ({ role: m[1]!.startsWith('doctor') ? ('CLINICIAN' as const) : ('PATIENT' as const), text: m[2]!.replace(/\s+([,.?!;:])/g, '$1').replace(/\s+n't\b/g, "n't").replace(/\s+'(s|re|ve|ll|d|m)\b/g, "'$1") }));
  fs.mkdirSync(CACHE, { recursive: true });
  const key = crypto.createHash('sha1').update(JSON.stringify({ voices, turns })).digest('hex').slice(0, 12);
  const file = path.join(CACHE, `${id}-${key}.pcm`);
  if (!fs.existsSync(file)) {
    const { pcm } = synth.synthesizeDialogue(turns, 500, { CLINICIAN: voices.doctor, PATIENT: voices.patient });
    fs.writeFileSync(file, pcm);
  }
  const pcm = fs.readFileSync(file);
  return { pcm, ms: (pcm.length / 32_000) * 1000 };
}
