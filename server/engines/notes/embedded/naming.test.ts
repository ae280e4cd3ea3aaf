import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { analyze, conditionMentions } from './analyze';
import { dialogueToTranscript } from './dialogue';
import { toThirdPerson } from './text';

const generate = (dialogue: string) =>
  new EmbeddedNotesEngine().generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });

describe('problems named by diagnosis', () => {
  const res = generate(`[doctor] what brings you in today?
[patient] i have been really short of breath for a week and my legs are swollen.
[doctor] on exam your lungs have crackles at the bases and you have two plus pitting edema.
[doctor] so for your shortness of breath, i think this is an acute heart failure exacerbation. i am going to increase your lasix to forty milligrams twice a day and we will get an echocardiogram.
[patient] okay.`);
  const ap = res.summary.find((s) => s.loinc_code === '51847-2')!.content;

  it('heads the problem with the diagnosis the clinician gave, not the symptom', () => {
    expect(ap).toMatch(/^1\. Acute heart failure exacerbation\.$/m);
    expect(ap).not.toMatch(/^\d\. Shortness of breath/m);
    expect(res.structured_data.diagnoses.values[0].codes[0].code).toBe('I50.9');
  });

  it('does not leave the topic intro ("for your shortness of breath") as a sentence', () => {
    expect(ap).not.toMatch(/For (?:their|your) shortness of breath\./);
  });
});

describe('negated lists', () => {
  it('carries a negation across the items of a list', () => {
    const [s] = analyze([{ transcriptId: 't', speaker: 'CLINICIAN', text: "you've not had any recent weight loss or gain, headaches, bone pain, or blood in the stools.", startMs: 0, endMs: 1 }]).sentences;
    const ms = conditionMentions(s);
    expect(ms.find((m) => m.surface === 'headaches')?.negated).toBe(true);
    const [t] = analyze([{ transcriptId: 't', speaker: 'CLINICIAN', text: 'no fever, but you do have headaches.', startMs: 0, endMs: 1 }]).sentences;
    expect(conditionMentions(t).find((m) => m.surface === 'headaches')?.negated).toBe(false);
  });
});

describe('first person to third person', () => {
  it('does not conjugate a preposition as a verb ("he durings")', () => {
    expect(toThirdPerson('i during the working week go to the gym', 'male')).not.toMatch(/durings/);
    expect(toThirdPerson('i mostly walk', 'male')).toBe('he mostly walks');
    expect(toThirdPerson('i like running', 'female')).toBe('she likes running');
  });
});

describe('garbled history clauses', () => {
  it('leaves out a bare negative reply instead of "reports not that …"', () => {
    const hpi = generate(`[doctor] what brings you in today?
[patient] my right knee has been hurting for two weeks since i fell.
[doctor] any swelling in the knee?
[patient] no. not that i've noticed.
[doctor] let me examine your knee. there is tenderness over the medial joint line.`).summary.find((s) => s.loinc_code === '10164-2')!.content;
    expect(hpi).toMatch(/denies swelling in the knee/i);
    expect(hpi).not.toMatch(/reports not/i);
  });
});

describe('restarted clauses', () => {
  it('keeps what the speaker settled on, and both clauses when nothing was abandoned', async () => {
    const { cleanUtterance } = await import('./text');
    expect(cleanUtterance("i don't i can't think of any time i fell")).toBe("i can't think of any time i fell");
    expect(cleanUtterance('i fell i hurt my knee')).toBe('i fell i hurt my knee');
  });
});
