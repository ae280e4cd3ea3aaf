import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';
import { dialogueToTranscript } from './dialogue';
import { cleanUtterance } from './text';

const who = (dialogue: string) => {
  const a = analyze(dialogueToTranscript(dialogue));
  return { name: a.name, sex: a.sex, age: a.age };
};

describe('patient name and sex from how the clinician opens', () => {
  it('reads a name said after a discourse word or a second greeting', () => {
    expect(who('[doctor] so sophia i see that you hurt your knee\n[patient] yeah.')).toMatchObject({ name: 'Sophia', sex: 'female' });
    expect(who('[doctor] okay raymond it looks like you have trouble swallowing\n[patient] yes.')).toMatchObject({ name: 'Raymond', sex: 'male' });
    expect(who('[doctor] hi good afternoon joseph how are you\n[patient] my toe hurts.')).toMatchObject({ name: 'Joseph', sex: 'male' });
  });

  it('does not take an everyday word that is also a first name, nor an unlisted word, for a name', () => {
    expect(who('[doctor] so will you tell me about the pain\n[patient] it hurts.').name).toBeUndefined();
    expect(who('[doctor] okay knee pain for two weeks\n[patient] yes.').name).toBeUndefined();
    expect(who('[doctor] so will you tell me about the pain\n[patient] it hurts.').sex).toBeUndefined();
  });
});

describe('corpus tokenisation', () => {
  it('rejoins a hyphen the corpus detached from a number, so the age and sex are read', () => {
    expect(cleanUtterance('russell is a 45 -year-old male')).toBe('russell is a 45-year-old male');
    expect(who('[doctor] russell ramirez is a 45 -year-old male who presents for follow-up\n[patient] hi.')).toMatchObject({ age: 45, sex: 'male' });
  });
});
