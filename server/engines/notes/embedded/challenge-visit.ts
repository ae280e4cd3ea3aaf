/**
 * The short visit the diagnosis challenge sets (diagnoses-challenge*.test.ts) say each sentence in: an opening, "let's talk
 * about my assessment and plan", and a right knee osteoarthritis the plan assesses; a sentence's codes are those it adds.
 */
import { expect } from 'vitest';
import type { NoteResult } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const engine = new EmbeddedNotesEngine();
export const codesOf = (dialogue: string): string[] =>
  engine
    .generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } })
    .structured_data.diagnoses.values.map((d: NoteResult['structured_data']['diagnoses']['values'][number]) => d.codes[0].code);
export const OPENING = "[doctor] Hi, what brings you in today?\n[patient] A few things I wanted to go over.\n[doctor] Okay, tell me more.\n[patient] That's about it.\n";
export const PLAN = "[doctor] Let's talk about my assessment and plan.\n";
const KNEE = `${OPENING}${PLAN}[doctor] For your right knee, I think this is osteoarthritis. Take ibuprofen 400 milligrams as needed.\n`;
const KNEE_CODES = new Set(codesOf(KNEE));
/** The codes a clinician's sentence adds to the knee visit. */
export const added = (said: string) => codesOf(`${KNEE}[doctor] ${said}`).filter((c) => !KNEE_CODES.has(c));

export const expectNone = (cases: Array<[string, RegExp]>) => {
  for (const [said, code] of cases) expect(added(said).filter((c) => code.test(c)), said).toEqual([]);
};
export const expectCoded = (cases: Array<[string, RegExp]>) => {
  for (const [said, code] of cases) expect(added(said).some((c) => code.test(c)), said).toBe(true);
};
