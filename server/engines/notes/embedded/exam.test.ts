import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';

const exam = (findings: string) =>
  new EmbeddedNotesEngine()
    .generateSync({
      transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] i have been short of breath and my ankles are swollen for two weeks.
[doctor] any chest pain?
[patient] no chest pain.
[doctor] let me examine you. ${findings}
[doctor] i think this is a congestive heart failure exacerbation. i am going to increase your lasix to forty milligrams twice a day.
[patient] okay.`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    })
    .summary.find((s) => s.loinc_code === '29545-1')!.content;

describe('a run-on examination', () => {
  it('files each system named in one breath under its own heading', () => {
    const content = exam('neck exam she does have some jvd no bruits her lung exam she has some crackles in both bases on her heart exam she has a 2/6 systolic ejection murmur');
    expect(content).toMatch(/^• Neck: Neck exam she does have some jvd no bruits\.$/m);
    expect(content).toMatch(/^• Respiratory: Lung exam she has some crackles in both bases\.$/m);
    expect(content).toMatch(/^• Cardiovascular: On her heart exam she has a 2\/6 systolic ejection murmur\.$/m);
  });

  it('keeps the finding said after an instruction and drops the instruction', () => {
    const content = exam("when i look at your neck i don't see any jugular vein distention and i'm going to listen here real quick no i don't hear any carotid bruits");
    expect(content).toMatch(/Neck: When I look at their neck no jugular vein distention\./);
    expect(content).toMatch(/Cardiovascular: No carotid bruits\./);
    expect(content).not.toMatch(/going to listen/);
  });
});

describe('a normal template beside an abnormal finding', () => {
  it('is left out, so the note never says "No murmurs" next to a murmur', () => {
    const content = exam('on his heart exam he does have a 2/6 systolic ejection murmur he had that in the past, otherwise regular rate and rhythm');
    expect(content).toMatch(/2\/6 systolic ejection murmur/);
    expect(content).not.toMatch(/No murmurs/);
  });
});

describe('history talk during the examination', () => {
  it('is not filed as a finding', () => {
    const content = exam('we have you on norvasc 5 mg daily, how are things going with that. your lungs are clear.');
    expect(content).not.toMatch(/norvasc|how are things/i);
    expect(content).toMatch(/Lungs are clear/);
  });
});
