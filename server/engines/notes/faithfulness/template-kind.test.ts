import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from '../embedded/index';
import { dialogueToTranscript } from '../embedded/dialogue';
import { templateKind } from './template-kind';

// A visit that makes the engine write each of its fixed lines: opener, normal exam, imaging discussion,
// counselling, agreement and follow-up.
const VISIT = `[doctor] hi, good morning. so you are a 52 year old male here for your right knee pain?
[patient] yes, my right knee has been hurting for two weeks.
[doctor] okay let me examine you. your heart sounds good and your lungs are clear.
[doctor] i reviewed your x-ray, it shows no fracture.
[doctor] for your right knee pain, we will start physical therapy and i will explain the risks and benefits.
[doctor] i'll see you back in four weeks.
[patient] that sounds good.`;

describe('templateKind', () => {
  it('recognises every fixed line the embedded engine writes for a visit', () => {
    const transcript = dialogueToTranscript(VISIT);
    const note = new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
    const kinds = new Set(note.summary.flatMap((s) => (s.sentences ?? []).map((x) => templateKind(x.text))).filter(Boolean));
    expect([...kinds].sort()).toEqual(['agreement', 'counselling', 'follow-up', 'imaging-discussion', 'normal-exam', 'opener']);
  });

  it('names each fixed wording', () => {
    expect(templateKind('The patient understands and agrees with the recommended medical treatment plan.')).toBe('agreement');
    expect(templateKind('I discussed the diagnosis and treatment options for hypertension with the patient.')).toBe('counselling');
    expect(templateKind('The patient will follow up with me in 4 weeks.')).toBe('follow-up');
    expect(templateKind('Mr. Smith is a 52-year-old male who presents to the clinic today for the evaluation of knee pain.')).toBe('opener');
    // A reason that is a kind of visit reads "for a …" (history.ts openingSentence).
    expect(templateKind('The patient presents to the clinic today for a diabetes follow-up.')).toBe('opener');
    expect(templateKind('The patient presents to the clinic today for follow-up of blood pressure and diabetes.')).toBe('opener');
    expect(templateKind('Regular rate and rhythm. No murmurs, gallops, or rubs.')).toBe('normal-exam');
  });

  it('leaves sentences written from the visit alone', () => {
    expect(templateKind('The patient reports right knee pain for 2 weeks.')).toBeUndefined();
    expect(templateKind('We will start physical therapy.')).toBeUndefined();
  });
});
