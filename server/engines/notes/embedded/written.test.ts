/**
 * Issue 27, tried as a user: greetings and small talk go nowhere, and what is still speech to someone in the room
 * is written in the note's voice or left out. Recogniser-shaped input: lower case, no punctuation, one entry per turn.
 */
import { describe, expect, it } from 'vitest';
import type { NoteResult, TranscriptLine } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine, noteToText } from './index';
import { checkNoteFaithfulness } from '../faithfulness/index';
import { clinicianVoice, FIRST_PERSON_SPEECH, stripSmallTalk, writtenSentence } from './written';

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
    // A greeting is a whole word (a browser trial, 3 Dec: "Gh blood pressure can lead to a stroke").
    expect(stripSmallTalk('High blood pressure can lead to a stroke if it is not treated.')).toBe('High blood pressure can lead to a stroke if it is not treated.');
    expect(stripSmallTalk('Heyman is my last name.')).toBe('Heyman is my last name.');
    expect(stripSmallTalk('Welcomed the news, yes.')).toBe('Welcomed the news, yes.');
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
    // The clinician's wish for the patient is advice given; "let me know" inside it stays.
    expect(writtenSentence('I want her to continue pilates and let me know if she has any issues.', 'female')).toBe('The patient was advised to continue pilates and let me know if she has any issues.');
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

describe("the clinician's first person, written in the note's voice", () => {
  it('writes a hedge as "likely", keeping what was said and that it was not certain', () => {
    expect(clinicianVoice('I think this is acute bronchitis.', undefined)).toBe('This is likely acute bronchitis.');
    expect(clinicianVoice('I do think she is retaining some fluid.', 'female')).toBe('She is likely retaining some fluid.');
    expect(clinicianVoice('I think he has an acute lumbar strain.', 'male')).toBe('He likely has an acute lumbar strain.');
    expect(clinicianVoice('I think it was an exacerbation of his heart failure.', 'male')).toBe('It was likely an exacerbation of his heart failure.');
    expect(clinicianVoice("I don't believe his hypertension is well controlled at this time.", 'male')).toBe('His hypertension is likely not well controlled at this time.');
    // Already a hedge in its own words: only the "I think" goes.
    expect(clinicianVoice('I think she may have a medial collateral ligament strain.', 'female')).toBe('She may have a medial collateral ligament strain.');
  });

  it('writes an intention as the plan, a wish for the patient as advice given, and drops a feeling', () => {
    expect(clinicianVoice('I am also going to order him some ultram 50 mg as needed every 6 hours for pain.', 'male')).toBe('We will also order him some ultram 50 mg as needed every 6 hours for pain.');
    expect(clinicianVoice("I'm not going to make any changes to the norvasc.", 'female')).toBe('We will not make any changes to the norvasc.');
    expect(clinicianVoice('I want him to push fluids and strain his urine.', 'male')).toBe('The patient was advised to push fluids and strain his urine.');
    expect(clinicianVoice('I am glad to see that she is in therapy and she is doing well.', 'female')).toBe('She is in therapy and she is doing well.');
  });

  it('leaves out what cannot be written without saying something the visit did not', () => {
    for (const said of [
      'I am happy for her.',
      'I would not change his dose.',
      'I want them to see this wound and improve the wound care that he is doing.', // someone other than the patient
      'I want him to know that we will be with him every step of the way.', // not advice
    ])
      expect(clinicianVoice(said, 'male'), said).toBe('');
  });

  it('cuts a run-on where the spoken first person starts, and rewrites a hedge inside it', () => {
    expect(clinicianVoice('We will get a recheck on her hemoglobin a1c and then I am.', 'female')).toBe('We will get a recheck on her hemoglobin a1c.');
    expect(clinicianVoice("I don't think we need to adjust any of those medications.", 'male')).toBe('We likely do not need to adjust any of those medications.');
    expect(clinicianVoice('We will start naprosyn 500 mg twice daily for his lower back I do not think he needs an x-ray at this time.', 'male')).toBe(
      'We will start naprosyn 500 mg twice daily for his lower back he likely does not need an x-ray at this time.',
    );
    // A self-correction takes back what came before it: nothing is kept from "a couple weeks".
    expect(clinicianVoice('We will order another hemoglobin a1c in a couple weeks, or, I am sorry, a couple months.', 'male')).toBe('');
    // Too little before the cut to be a sentence: left out.
    expect(clinicianVoice('That is what I would do.', 'female')).toBe('');
  });

  it("keeps the documentation voice: what the clinician did, reviewed or recommended", () => {
    for (const said of ['I recommended an ultrasound to rule out metastatic disease.', 'I reviewed the x-ray of the right knee.', 'We will order an MRI of the right knee.'])
      expect(clinicianVoice(said, 'female')).toBe(said);
  });

  it('writes the recorder visit\'s "i think this is acute bronchitis" as reasoning in the note\'s voice, still coded and with its evidence', () => {
    const transcript = heard(RECOGNISED);
    const r = generate(transcript);
    const plan = r.summary.find((s) => s.loinc_code === '51847-2')!;
    expect(plan.content).toContain('Medical Reasoning: This is likely acute bronchitis.');
    expect(plan.content).not.toMatch(/\bI think\b/);
    expect(plan.sentences!.find((s) => s.text === 'This is likely acute bronchitis.')?.source_transcripts).toEqual(['a3']);
    expect(r.structured_data.diagnoses.values.map((d) => d.codes[0].code)).toContain('J20.9');
    const report = checkNoteFaithfulness(r, transcript);
    expect(report.unsupported).toEqual([]);
    expect(report.sentences.filter((s) => !s.template && s.noEvidence)).toEqual([]);
  });

  it('leaves no first-person speech in the plan of a visit full of it', () => {
    const r = generate(dialogueToTranscript(`[doctor] what brings you in today
[patient] my lower back has hurt for five days since i moved a refrigerator
[doctor] any numbness or weakness in your legs
[patient] no
[doctor] on exam there is tenderness of the left lumbar paraspinal muscles
[doctor] i think you have an acute lumbar strain. i am happy for you that it is not worse.
[doctor] i'm going to prescribe naproxen five hundred milligrams twice a day and i want you to use ice and heat.
[doctor] i don't think we need an x-ray at this time.
[doctor] i'll see you back in two weeks`));
    const plan = r.summary.find((s) => s.loinc_code === '51847-2')!;
    for (const s of plan.sentences!) expect(s.text).not.toMatch(FIRST_PERSON_SPEECH);
    expect(plan.content).toMatch(/likely has an acute lumbar strain\./);
    expect(plan.content).toMatch(/We will prescribe naproxen 500 mg twice daily/);
  });
});
