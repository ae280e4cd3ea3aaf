import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';

const note = (dialogue: string) => {
  const res = new EmbeddedNotesEngine().generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const section = (loinc: string) => res.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
  return { cc: section('10154-3'), ros: section('10187-3') };
};

describe('chief complaint of pain in a body part', () => {
  it('names the part and the side said in the opening, not a chronic condition raised later', () => {
    const { cc, ros } = note(`[doctor] so sophia i see that you hurt your knee, tell me about what happened.
[patient] i was jumping on my kid's trampoline and it slipped out from under me.
[doctor] which knee was it?
[patient] my right knee.
[doctor] and how has your diabetes been? are you keeping your sugars low?
[patient] it's going okay, i forget to check sometimes.
[doctor] let me examine your knee. there is swelling and tenderness on the medial side.
[doctor] for your knee, i am going to put you in a brace and order an mri.`);
    expect(cc).toBe('Right knee pain.');
    expect(ros).toMatch(/Musculoskeletal: Endorses right knee pain\./);
  });

  it('writes both sides as bilateral and leaves the side out when right and left are only compared', () => {
    expect(note(`[doctor] hey dylan, what's going on?
[patient] it's both my elbows, but my right elbow is hurting me the most.
[doctor] let me examine your elbows. there is tenderness over the medial epicondyles.`).cc).toBe('Bilateral elbow pain.');
    expect(note(`[doctor] hi george, what brings you in?
[patient] my knee hurts when i climb stairs. the right knee is worse than the left knee.
[doctor] let me examine your knees. there is crepitus.`).cc).toBe('Knee pain.');
  });
});
