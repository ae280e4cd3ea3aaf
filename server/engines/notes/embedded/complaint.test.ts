import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';

const note = (dialogue: string) => {
  const res = new EmbeddedNotesEngine().generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const section = (loinc: string) => res.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
  return { cc: section('10154-3'), ros: section('10187-3'), exam: section('29545-1'), ap: section('51847-2'), dx: res.structured_data.diagnoses.values };
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

describe('chief complaint the clinician opens on', () => {
  it('takes the symptom the clinician says the patient is having, not a diagnosis made later', () => {
    expect(note(`[doctor] okay raymond it looks like you've been having some difficulty swallowing, tell me about it.
[patient] it hurts when i swallow, down in my chest.
[doctor] let me examine you. your lungs are clear.
[doctor] i reviewed your barium swallow and i think you have acute esophagitis. i will prescribe protonix forty milligrams once a day.`).cc).toBe('Difficulty swallowing.');
  });
});

describe('chief complaint dictated by the clinician', () => {
  it('reads "chief complaint is …" and "here to establish care for …"', () => {
    expect(note(`[doctor] dictating on donald clark. date of birth, 03/04/1937. chief complaint is left arm pain. hello, how are you?
[patient] my arm has been bothering me, it is a pinched nerve i think.
[doctor] let me examine your arm. strength is 4 out of 5.`).cc).toBe('Left arm pain.');
    expect(note(`[doctor] sophia brown. this is a new patient visit. she's here to establish care for a history of dcis.
[patient] hi. i have some back pain too.
[doctor] let me examine you. your lungs are clear.`).cc).toBe('History of dcis.');
  });
});

describe('the part examined', () => {
  it('is named with the side of the complaint when the exam does not say it', () => {
    expect(note(`[doctor] hey dylan, what's going on?
[patient] it's both my elbows, but my right elbow is hurting me the most.
[doctor] how long has this been going on?
[patient] about two months, since i started lifting heavier weights.
[doctor] let me examine your elbows. there is tenderness over the medial epicondyle of each elbow.
[doctor] i think you have medial epicondylitis. we will start physical therapy.
[patient] okay.`).exam).toMatch(/Musculoskeletal: Examination of the bilateral elbows: /);
  });
});

describe('chief complaint as framed', () => {
  it('keeps a long framing whole and drops a leading "some"', () => {
    expect(note(`[doctor] joseph is a 59-year-old male here for routine follow-up of his chronic problems.
[patient] i did feel a little lightheaded on the stairs.
[doctor] let me examine you. your lungs are clear.`).cc).toBe('Routine follow-up of his chronic problems.');
    expect(note(`[doctor] so barbara i know you are here for some itchy scalp pain, can you tell me about it?
[patient] it has been itchy for months.
[doctor] let me examine your scalp. there are scaly plaques.`).cc).toBe('Itchy scalp pain.');
  });
});

describe('plan talk before any condition is named', () => {
  it('is filed under the body part the visit opened on, not under a chronic problem discussed after it', () => {
    const { ap, dx } = note(`[doctor] so sophia i see that you hurt your right knee, tell me about what happened.
[patient] i was jumping on a trampoline and it slipped out from under me.
[doctor] and how has your diabetes been?
[patient] it's going okay.
[doctor] let me examine your knee. there is swelling and tenderness on the medial side.
[doctor] so let's talk about your plan. i am going to put you in a straight leg brace and i am going to send you for an mri of the knee.
[doctor] your diabetes is well controlled. i want to get a hemoglobin a1c and refill your metformin five hundred milligrams twice a day.
[patient] okay.`);
    expect(ap).toMatch(/^1\. Right knee pain\.$/m);
    expect(ap).toMatch(/^2\. Diabetes\.$/m);
    const knee = ap.slice(ap.indexOf('1. Right knee pain'), ap.indexOf('2. Diabetes'));
    expect(knee).toMatch(/straight leg brace/);
    expect(knee).not.toMatch(/metformin/);
    // The complaint has no code of its own; the coded diagnoses are the conditions named.
    expect(dx.map((d) => d.codes[0].code.slice(0, 3))).toContain('E11');
    expect(dx.every((d) => d.codes[0].code)).toBe(true);
  });

  it('starts a new problem at a short topic clause ("for your diabetes, i want …")', () => {
    const { ap } = note(`[doctor] so sophia i see that you hurt your right knee, tell me about what happened.
[patient] i was jumping on a trampoline and it slipped out from under me.
[doctor] let me examine your knee. there is swelling and tenderness on the medial side.
[doctor] so let's talk about your plan. i am going to put you in a straight leg brace and i am going to send you for an mri of the knee.
[doctor] for your diabetes, i want to get a hemoglobin a1c and refill your metformin five hundred milligrams twice a day.
[patient] okay.`);
    const diabetes = ap.slice(ap.indexOf('2. Diabetes'));
    expect(ap).toMatch(/^2\. Diabetes\.$/m);
    expect(diabetes).toMatch(/hemoglobin a1c/);
    expect(ap.slice(0, ap.indexOf('2. Diabetes'))).not.toMatch(/metformin/);
  });
});
