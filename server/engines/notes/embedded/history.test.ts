import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';
import { ageOn, clinicianHistory, listJoin } from './history';

describe('history the clinician goes over from the chart', () => {
  it('enters the history of present illness in the third person', () => {
    const hpi = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] hello, ms. brown.
[patient] hi.
[doctor] so, i have that you were found to have a calcification in your right breast during a mammogram in october 2019.
[patient] yes, that sounds right.
[doctor] and you had a lumpectomy on january 20th, 2020, which removed the tumor and the margins were negative.
[patient] yes, i was relieved.
[doctor] let me examine you. your lungs are clear.
[doctor] we will get a mammogram in one year.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '10164-2')!.content;
    expect(hpi).toMatch(/She was found to have a calcification in her right breast during a mammogram in october 2019\./);
    expect(hpi).toMatch(/She had a lumpectomy on january 20th, 2020/);
  });

  it('leaves out questions, greetings and plans', () => {
    expect(clinicianHistory('have you had any surgeries in the past?', true)).toBeUndefined();
    expect(clinicianHistory('hi elizabeth so i see that you were experiencing some kind of injury', false)).toBeUndefined();
    expect(clinicianHistory("if you had any pain we will get an x-ray of the knee", false)).toBeUndefined();
    expect(clinicianHistory('you had a colonoscopy about three years ago that showed diverticulosis', false)).toBe('you had a colonoscopy about three years ago that showed diverticulosis');
  });
});

describe('a negative answer that starts with "no"', () => {
  it('is never turned into a reported symptom ("no belly pain though")', () => {
    const res = new EmbeddedNotesEngine().generateSync({
      transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] i have been short of breath for a week.
[doctor] okay. any chest pain, shortness of breath, or belly pain?
[patient] shortness of breath. no belly pain though.
[doctor] let me examine you. your lungs are clear.`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    const text = res.summary.map((s) => s.content).join('\n');
    expect(text).not.toMatch(/(?:reports|endorses)[^.]*belly pain/i);
    expect(text).not.toMatch(/Gastrointestinal: Endorses/);
  });
});

describe('greetings and getting started', () => {
  it('stay out of the history', () => {
    const hpi = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] hi, martha. are you ready to get started?
[patient] hi, doctor taylor. yes, i'm ready.
[doctor] what brings you in today?
[patient] my back has been hurting for two weeks since i lifted a box.
[doctor] let me examine your back. there is tenderness over the lumbar spine.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '10164-2')!.content;
    expect(hpi).toMatch(/back has been hurting for 2 weeks/);
    expect(hpi).not.toMatch(/doctor taylor|ready/i);
  });
});

describe('review of systems', () => {
  it('lists the systems head to toe, not in the order they came up', () => {
    const ros = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] i have had headaches and a cough for a week.
[doctor] any fever or chills?
[patient] yes, i had a fever last night.
[doctor] let me examine you. your lungs are clear.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '10187-3')!.content;
    const order = ['Constitutional', 'Respiratory', 'Neurological'].map((system) => ros.indexOf(`${system}:`));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });
});

describe('symptoms the patient says they have not had', () => {
  it('are denied in the review of systems', () => {
    const ros = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] i have had a cough for a week. but no fever or chills.
[doctor] let me examine you. your lungs are clear.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '10187-3')!.content;
    expect(ros).toMatch(/Constitutional: Denies fever, chills\./);
    expect(ros).toMatch(/Respiratory: Endorses cough\./);
  });
});

describe('"but" and negation', () => {
  it('cancels a negation said before it, not one said after it', async () => {
    const { analyze, conditionMentions } = await import('./analyze');
    const negated = (text: string) => {
      const [s] = analyze([{ transcriptId: 't', speaker: 'PATIENT', text, startMs: 0, endMs: 1 }]).sentences;
      return Object.fromEntries(conditionMentions(s).map((m) => [m.surface, m.negated]));
    };
    expect(negated('but no fever or chills.')).toEqual({ fever: true, chills: true });
    expect(negated('no cough but i do have a fever.')).toMatchObject({ cough: true, fever: false });
  });
});

describe('the clinician summing up what was denied', () => {
  it('records the denials in the review of systems', () => {
    const ros = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] i have had a cough for a week.
[doctor] okay, you haven't had any fever or chills, that's good.
[patient] right.
[doctor] let me examine you. your lungs are clear.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '10187-3')!.content;
    expect(ros).toMatch(/Constitutional: Denies fever, chills\./);
  });
});

describe('the opener from the visit context', () => {
  it('gives the age the birth date gives on the day, when the visit does not say it', () => {
    expect(ageOn('1961-05-02', new Date('2026-05-01T12:00:00Z'))).toBe(64);
    expect(ageOn('1961-05-02', new Date('2026-05-02T12:00:00Z'))).toBe(65);
    expect(ageOn(undefined, new Date())).toBeUndefined();
    expect(ageOn('not a date', new Date())).toBeUndefined();
    expect(ageOn('2030-01-01', new Date('2026-01-01T00:00:00Z'))).toBeUndefined();
    const transcript = dialogueToTranscript("[doctor] Good morning, how is the cough?\n[patient] About the same.\n[doctor] Let's talk about my assessment and plan. You have asthma, continue the albuterol as needed.");
    const dob = new Date();
    dob.setUTCFullYear(dob.getUTCFullYear() - 50, dob.getUTCMonth(), dob.getUTCDate() - 1);
    const note = new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} }, patient: { dob: dob.toISOString().slice(0, 10), sex: 'female' } });
    expect(note.summary.find((s) => s.loinc_code === '10164-2')?.content).toMatch(/is a 50-year-old female/);
  });

  it('joins two past conditions without a comma', () => {
    expect(listJoin(['diabetes', 'hypertension'])).toBe('diabetes and hypertension');
    expect(listJoin(['diabetes', 'asthma', 'hypertension'])).toBe('diabetes, asthma, and hypertension');
  });
});
