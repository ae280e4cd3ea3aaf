/** Spoken audio files for upload tests: Festival's voices (as the browser tests use), re-encoded by ffmpeg. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWavPcm16 } from '../engines/speech/audio';
import { NATURAL_VOICES, synthesizeDialogue } from '../engines/speech/synth';

/**
 * A WAV of the turns in Festival's voices (built from recorded speech: espeak-ng's formant voice is mostly
 * unrecognised), and the same audio in each other format asked for, encoded by ffmpeg.
 */
export function spokenFiles(turns: { role: 'CLINICIAN' | 'PATIENT'; text: string }[], formats: readonly ('mp3' | 'flac' | 'm4a' | 'webm')[] = []): { wav: Buffer } & Record<string, Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-audio-'));
  try {
    const wav = path.join(dir, 'speech.wav');
    fs.writeFileSync(wav, encodeWavPcm16(synthesizeDialogue(turns, 600, NATURAL_VOICES).pcm));
    const out: Record<string, Buffer> = { wav: fs.readFileSync(wav) };
    for (const f of formats) {
      const file = path.join(dir, `speech.${f}`);
      execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', wav, ...(f === 'webm' ? ['-c:a', 'libopus'] : []), '-y', file]);
      out[f] = fs.readFileSync(file);
    }
    return out as { wav: Buffer } & Record<string, Buffer>;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
