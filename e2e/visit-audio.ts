/**
 * The visit the fake microphone plays in the recorder tests: Festival's voices built from recorded speech,
 * two speakers, 16 kHz mono, written once into tmp/ when a spec loads (before its browser starts with it).
 * Chromium loops the file for as long as a test records.
 */
import fs from 'node:fs';
import path from 'node:path';
import { encodeWavPcm16 } from '../server/engines/speech/audio';
import { NATURAL_VOICES, synthesizeDialogue } from '../server/engines/speech/synth';

const VISIT_DIR = path.resolve(import.meta.dirname, '..', 'tmp', 'e2e-clinician');
export const VISIT_WAV = path.join(VISIT_DIR, 'visit-festival-16k-short.wav');

// Short enough to keep the suite's decoding time down (the recorder streams it at real time and the
// embedded recogniser decodes it on the same two cores as the browser), with a medication line early and
// one late so a dropped connection cannot cut both.
export const VISIT: Array<['C' | 'P', string]> = [
  ['C', 'Good morning. What brings you in today?'],
  ['P', 'I have had a cough and a fever for two weeks, and my chest hurts when I cough.'],
  ['P', 'I take lisinopril ten milligrams once a day for high blood pressure.'],
  ['C', 'I think this is acute bronchitis. I will start amoxicillin five hundred milligrams three times a day for seven days.'],
  ['C', 'Keep taking the lisinopril, and come back if the fever lasts more than three days.'],
];

/** Every word the visit says, lower case, for checking that a transcript holds the visit's words. */
export const VISIT_WORDS = new Set(VISIT.flatMap(([, text]) => text.toLowerCase().match(/[a-z]+/g) ?? []));

/**
 * The voices are Festival's (diphones and an HMM voice made from recorded speech): espeak-ng's formant voices
 * are far from the speech a clinic records, and the recogniser rightly marks most of their words unsure,
 * so the note would have too little in it to check the flow from audio to coded data.
 */
export function ensureVisitWav(): void {
  if (fs.existsSync(VISIT_WAV)) return;
  fs.mkdirSync(VISIT_DIR, { recursive: true });
  const turns = VISIT.map(([who, text]) => ({ role: who === 'C' ? ('CLINICIAN' as const) : ('PATIENT' as const), text }));
  fs.writeFileSync(VISIT_WAV, encodeWavPcm16(synthesizeDialogue(turns, 700, NATURAL_VOICES).pcm));
}

/** The visit's length: 16 kHz mono PCM16 after the 44-byte WAV header. */
export const visitMs = () => Math.floor((fs.statSync(VISIT_WAV).size - 44) / 32);

/** Chromium's arguments for a fake microphone playing the visit. */
export const visitMicrophoneArgs = () => [
  '--no-sandbox',
  '--disable-background-networking',
  '--no-first-run',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${VISIT_WAV}`,
  '--autoplay-policy=no-user-gesture-required',
];
