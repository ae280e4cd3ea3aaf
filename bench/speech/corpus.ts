/**
 * Recordings with reference text for the speech bench and decoder tuning:
 *  - real human speech shipped by Debian: pocketsphinx-testdata (LibriVox excerpts, "go forward", five
 *    spoken card names such as "eight of spades four of clubs seven of hearts") and
 *    alsa-utils' spoken channel names (/usr/share/sounds/alsa, "front left" …),
 *  - clinic dialogues synthesised from ACI-BENCH conversations, one voice per speaker, from espeak-ng or
 *    the natural voices (Festival diphone/HTS, Flite) of server/engines/speech/synth.ts.
 * Synthesised audio is cached under the OS temp dir so that repeated runs skip espeak-ng.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeWav, toPcm16Mono16k } from '../../server/engines/speech/audio.js';
import { VOICES, synthesizeDialogue, type Turn } from '../../server/engines/speech/synth.js';
import type { SpeakerRole } from '../../server/engines/speech/types.js';

export interface Recording {
  id: string;
  kind: 'human' | 'clinic';
  pcm: Buffer;
  reference: string;
  encounter?: Encounter;
  turns?: (Turn & { startMs: number; endMs: number })[];
}

const TESTDATA = '/usr/share/pocketsphinx/test/data';
export const ACI_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared/data/aci-bench');

export function humanRecordings(): Recording[] {
  const out: Recording[] = [];
  // Sphinx transcription files: "<s> words </s> (file id)", one recording per line.
  for (const [dir, file] of [
    ['librivox', 'transcription'],
    ['cards', 'cards.transcription'],
  ] as const) {
    const trans = path.join(TESTDATA, dir, file);
    if (!fs.existsSync(trans)) continue;
    for (const line of fs.readFileSync(trans, 'utf8').split('\n')) {
      const m = /^<s>\s*(.*?)\s*<\/s>\s*\((.+)\)$/.exec(line.trim());
      if (!m) continue;
      const wav = path.join(TESTDATA, dir, `${m[2]}.wav`);
      if (fs.existsSync(wav)) out.push({ id: `${dir}/${m[2]}`, kind: 'human', pcm: toPcm16Mono16k(decodeWav(fs.readFileSync(wav))), reference: m[1]! });
    }
  }
  const gf = path.join(TESTDATA, 'goforward.raw');
  if (fs.existsSync(gf)) out.push({ id: 'goforward', kind: 'human', pcm: fs.readFileSync(gf), reference: 'go forward ten meters' });
  const alsa = '/usr/share/sounds/alsa';
  if (fs.existsSync(alsa)) {
    for (const f of fs.readdirSync(alsa).sort()) {
      const m = /^(Front|Rear|Side)_(Left|Right|Center)\.wav$/.exec(f);
      if (m) out.push({ id: `alsa/${f}`, kind: 'human', pcm: toPcm16Mono16k(decodeWav(fs.readFileSync(path.join(alsa, f)))), reference: `${m[1]} ${m[2]}`.toLowerCase() });
    }
  }
  return out;
}

export interface Encounter {
  encounter_id: string;
  dialogue: string;
  note?: string;
}

export function dialogueTurns(dialogue: string): Turn[] {
  const turns: Turn[] = [];
  for (const line of dialogue.split('\n')) {
    const m = /^\[(\w+)\]\s*(.*)$/.exec(line.trim());
    if (!m || !m[2]!.replace(/[^a-z0-9]/gi, '')) continue;
    const role: SpeakerRole = m[1] === 'doctor' ? 'CLINICIAN' : m[1] === 'patient' ? 'PATIENT' : 'UNKNOWN';
    if (role === 'UNKNOWN') continue;
    turns.push({ role, text: m[2]!.replace(/\s+([,.?!])/g, '$1') });
  }
  return turns;
}

export function aciEncounters(split: 'train' | 'valid'): Encounter[] | null {
  const f = path.join(ACI_DIR, `${split}.jsonl`);
  if (!fs.existsSync(f)) return null;
  return fs.readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Encounter);
}

const CACHE = path.join(os.tmpdir(), 'ambient-speech-bench-cache');

/** The first `maxTurns` turns of each chosen encounter, spoken by two voices (espeak-ng's pair by default). */
export function clinicRecordings(
  split: 'train' | 'valid',
  encounters: number,
  maxTurns: number,
  skip = 0,
  voices: Record<'CLINICIAN' | 'PATIENT', string> = VOICES,
  /** Which encounters (by index in the split) may be chosen, e.g. the held-out fold of train. */
  keep: (index: number) => boolean = () => true,
): Recording[] {
  const es = aciEncounters(split)?.filter((_, i) => keep(i));
  if (!es) return [];
  fs.mkdirSync(CACHE, { recursive: true });
  return es.slice(skip, skip + encounters).map((e) => {
    const turns = dialogueTurns(e.dialogue).slice(0, maxTurns);
    // The espeak pair keeps its old cache key so earlier caches stay valid.
    const keyed = voices === VOICES ? turns : { turns, voices };
    const key = crypto.createHash('sha1').update(JSON.stringify(keyed)).digest('hex').slice(0, 12);
    const file = path.join(CACHE, `${split}-${e.encounter_id}-${key}.json`);
    let dlg: ReturnType<typeof synthesizeDialogue>;
    if (fs.existsSync(file) && fs.existsSync(`${file}.pcm`)) {
      dlg = { turns: JSON.parse(fs.readFileSync(file, 'utf8')), pcm: fs.readFileSync(`${file}.pcm`) };
    } else {
      dlg = synthesizeDialogue(turns, 800, voices);
      fs.writeFileSync(`${file}.pcm`, dlg.pcm);
      fs.writeFileSync(file, JSON.stringify(dlg.turns));
    }
    return { id: `aci-${split}/${e.encounter_id}`, encounter: e, kind: 'clinic' as const, pcm: dlg.pcm, reference: turns.map((t) => t.text).join(' '), turns: dlg.turns };
  });
}

/**
 * The same recording spoken faster, pitch kept (sox's WSOLA `tempo`): read and synthesised speech is slower
 * than talk in a clinic room, and a decoder setting that trades on speaking rate (`-frate`) must be seen on
 * fast speech too.
 */
export function spedUp(r: Recording, tempo: number): Recording {
  const raw = ['-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1'];
  const pcm = execFileSync('sox', ['-V1', ...raw, '-', ...raw, '-', 'tempo', '-s', String(tempo)], { input: r.pcm, maxBuffer: 1 << 30 });
  return { ...r, id: `${r.id}@${tempo}`, pcm, turns: undefined };
}

