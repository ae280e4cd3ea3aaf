/**
 * Issue 27, tried as a user: greetings and small talk go nowhere, and what is still speech to someone in the room
 * is written in the note's voice or left out. Recogniser-shaped input: lower case, no punctuation, one entry per turn.
 */
import { describe, expect, it } from 'vitest';
import type { NoteResult, TranscriptLine } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine, noteToText } from './index';
import { stripSmallTalk, writtenSentence } from './written';

const engine = new EmbeddedNotesEngine();
const generate = (transcript: TranscriptLine[]): NoteResult => engine.generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const heard = (turns: Array<['C' | 'P', string]>): TranscriptLine[] =>
  turns.map(([who, text], i) => ({ transcriptId: `a${i}`, speaker: who === 'C' ? 'CLINICIAN' : 'PATIENT', text, startMs: i * 4000, endMs: i * 4000 + 3500 }));

// The recorder tests' visit as the recogniser returned it from natural (Festival) voices.
const RECOGNISED: Array<['C' | 'P', string]> = [
  ['C', 'morning what brings you in today'],
  ['P', 'i have had a cough and a fever for two weeks and my chest hurts when i cough'],
  ['P', 'i take lisinopril ten milligrams once a day for high blood pressure'],
  ['C', 'i think this is acute bronchitis'],
  ['C', 'i will start amoxicillin five hundred milligrams three times a day for seven days'],
  ['C', 'keep taking the lisinopril and come back if the fever lasts more than three days'],
];

describe('greetings and small talk', () => {
  it('put nothing of "morning what brings you in today" in any section, and the diagnosis stays in the plan and coded', () => {
    for (const greeting of ['morning what brings you in today', 'good morning what brings you in today', 'Good morning. What brings you in today?', 'hi there how are you doing today what brings you in']) {
      const r = generate(heard([['C', greeting], ...RECOGNISED.slice(1)]));
      const text = noteToText(r);
      expect(text, greeting).not.toMatch(/morning|what brings|how are/i);
      expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code), greeting).toContain('J20.9');
      expect(r.summary.find((s) => s.loinc_code === '51847-2')?.content, greeting).toMatch(/^1\. Acute bronchitis\.$/m);
    }
  });

  it('are cut out of an utterance, punctuated or not, and what else was said stays', () => {
    expect(stripSmallTalk('morning what brings you in today')).toBe('');
    expect(stripSmallTalk('hey george how are you today i understand you are here for some numbness')).toBe('i understand you are here for some numbness');
    expect(stripSmallTalk('morning thanks doctor cooper i have been feeling sad')).toBe('i have been feeling sad');
    expect(stripSmallTalk("i'm doing well thanks and you")).toBe('');
    expect(stripSmallTalk('take care and i will see you in two weeks')).toBe('i will see you in two weeks');
    // Not small talk: a finding, an answer, a question about the visit's subject.
    expect(stripSmallTalk('morning stiffness lasts an hour')).toBe('morning stiffness lasts an hour');
    expect(stripSmallTalk('yes')).toBe('yes');
    expect(stripSmallTalk("how's it been since you've had your heart attack")).toBe("how's it been since you've had your heart attack");
  });
});

describe('written, not pasted', () => {
  it('writes an instruction to the patient as advice given, in the third person', () => {
    const plan = generate(heard(RECOGNISED)).summary.find((s) => s.loinc_code === '51847-2')!.content;
    expect(plan).toContain('The patient was advised to keep taking the lisinopril and come back if the fever lasts more than 3 days.');
  });

  it('leaves out directions given during the exam, questions and a "you" it cannot place (ACI-BENCH D2N082 kind)', () => {
    expect(writtenSentence('Then, let me go ahead, I want to press on her belly slightly is that tender anywhere that I press it does not hurt.', 'female')).toBe('');
    expect(writtenSentence('Let me take a quick listen to his heart and lungs.', 'male')).toBe('');
    expect(writtenSentence('Squeeze her knees together, push it out and kick her leg out straight.', 'female')).toBe('');
    expect(writtenSentence('Go ahead and finalize the recording.', undefined)).toBe('');
    expect(writtenSentence('He reports how you doing is it gotten any better.', 'male')).toBe('');
    expect(writtenSentence('Is that tender when I press here.', undefined)).toBe('');
    // The note's own voice stays: a medication direction, "let me know" inside a plan sentence.
    expect(writtenSentence('Continue with his statin.', 'male')).toBe('Continue with his statin.');
    expect(writtenSentence('I want her to continue pilates and let me know if she has any issues.', 'female')).toBe('I want her to continue pilates and let me know if she has any issues.');
  });

  it('leaves no addressed speech in a note written from a run-on exam', () => {
    const r = generate(dialogueToTranscript(`[doctor] hi how are you
[patient] my belly hurts on the right side for three days
[doctor] any fever
[patient] no
[doctor] okay let me examine you i want to press on your belly is that tender anywhere
[patient] yes right there
[doctor] i think this is likely gastritis we will start omeprazole twenty milligrams daily`));
    for (const s of r.summary.flatMap((x) => x.sentences ?? [])) expect(s.text).not.toMatch(/\b(?:you|your|let me(?! know))\b|\?/i);
  });
});
