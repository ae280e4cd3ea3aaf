import { describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '@/server/codesets/index';
import { EmbeddedNotesEngine } from './index';
import { analyze, conditionMentions } from './analyze';
import { dialogueToTranscript } from './dialogue';
import { removeDisfluencies } from './text';
import { splitPlanClauses } from './plan';

const engine = new EmbeddedNotesEngine({ codes: builtinCodeIndex() });
const generate = (dialogue: string) =>
  engine.generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (res: ReturnType<typeof generate>, loinc: string) => res.summary.find((s) => s.loinc_code === loinc)!;

/** Codes found in one clinician sentence, negated mentions left out. */
function codesIn(text: string): string[] {
  const [s] = analyze([{ transcriptId: 't1', speaker: 'CLINICIAN', text, startMs: 0, endMs: 1 }]).sentences;
  return conditionMentions(s).filter((m) => !m.negated).map((m) => m.code);
}

describe('disfluency removal', () => {
  it('drops fillers, tag questions and dangling conjunctions but keeps the facts', () => {
    expect(removeDisfluencies('okay so um you know the pain is like, worse at night and')).toBe('the pain is worse at night');
    expect(removeDisfluencies("i'm going to prescribe meloxicam 15 mg does that sound good")).toBe("i'm going to prescribe meloxicam 15 mg");
    expect(removeDisfluencies('i mean it kind of hurts when i walk, you know')).toBe('it hurts when i walk');
    expect(removeDisfluencies('no fever')).toBe('no fever');
  });
  it('leaves no filler in the generated history and plan', () => {
    const res = generate(`[doctor] what brings you in today ?
[patient] um so you know i've been having like , pain in my lower back for about two weeks and it's kind of worse when i bend .
[doctor] okay . let me examine you . your back is tender to palpation .
[doctor] so for your low back pain , um , i'm going to prescribe meloxicam 15 mg once a day , okay ?
[patient] okay .`);
    const text = [section(res, '10164-2'), section(res, '51847-2')].map((s) => s.content).join('\n');
    expect(text).toMatch(/lower back/);
    expect(text).not.toMatch(/\b(um|you know|kind of)\b/i);
    expect(text).not.toMatch(/,\s*okay\b/i);
    // Each sentence still names the transcript entry it was written from.
    for (const s of section(res, '51847-2').sentences!) expect(s.source_transcripts.length).toBeGreaterThan(0);
  });
  it('splits a run-on plan at each new action', () => {
    expect(splitPlanClauses('we will continue the metformin I am going to order a hemoglobin a1c I want you to check your sugars')).toEqual([
      'we will continue the metformin',
      'I am going to order a hemoglobin a1c',
      'I want you to check your sugars',
    ]);
  });
});

describe('normal examination templating', () => {
  const res = generate(`[doctor] hi , how are you ?
[patient] my knee hurts .
[doctor] alright let me examine you . i'm just going to listen to your heart your heart sounds good and your lungs are clear . your belly is soft . your vital signs look good . on exam of the right knee there is swelling and tenderness .
[doctor] so for your right knee pain , i want you to ice it and rest .
[patient] okay .`);
  const exam = section(res, '29545-1');
  it('writes normal findings in scribe wording by system', () => {
    expect(exam.content).toContain('Cardiovascular: Regular rate and rhythm. No murmurs, gallops, or rubs.');
    expect(exam.content).toContain('Respiratory: Lungs are clear to auscultation bilaterally. No wheezes, rales, or rhonchi.');
    expect(exam.content).toContain('Gastrointestinal: Soft, nontender, and nondistended.');
    expect(exam.content).toContain('Vitals: All vital signs are within the normal limits.');
  });
  it('keeps abnormal findings as said and links templated lines to their sentence', () => {
    expect(exam.content).toMatch(/Musculoskeletal: .*swelling and tenderness/);
    const heart = exam.sentences!.find((s) => s.text.startsWith('Regular rate and rhythm'))!;
    expect(heart.source_transcripts).toEqual(['t3']);
  });
  it('does not template a heart with a murmur', () => {
    const r = generate(`[doctor] how are you feeling ?\n[patient] tired , and my ankles swell .\n[doctor] any chest pain ?\n[patient] no .\n[doctor] let me examine you . your heart has a 2/6 systolic ejection murmur , regular rhythm .\n[doctor] so for your heart failure continue lasix 20 mg daily .`);
    const e = section(r, '29545-1').content;
    expect(e).not.toContain('No murmurs');
    expect(e).toMatch(/2\/6 systolic ejection murmur/);
  });
  it('ends the plan with numbered problems and the follow-up interval', () => {
    const plan = section(res, '51847-2').content;
    expect(plan).toMatch(/^1\. Right knee pain\.$/m);
    const r = generate(`[doctor] let me examine you . your lungs are clear .\n[doctor] for your hypertension , continue lisinopril 10 mg daily . i'll see you back in four weeks .\n[patient] sounds good .`);
    expect(section(r, '51847-2').content).toContain('Instructions: The patient will follow up with me in 4 weeks.');
  });
});

describe('condition phrase matching', () => {
  it('maps lay terms to their diagnoses', () => {
    expect(codesIn('she has sugar diabetes')).toEqual(['E11.9']);
    expect(codesIn('he has high blood pressure')).toEqual(['I10']);
    expect(codesIn('he had a heart attack last year')).toEqual(['I21.9']);
    expect(codesIn('her thyroid problem is stable')).toEqual(['E07.9']);
    expect(codesIn('he has an irregular heartbeat')).toEqual(['I49.9']);
  });
  it('matches plurals and laterality said after the term', () => {
    expect(codesIn('she gets migraines')).toEqual(['G43.909']);
    expect(codesIn('you have knee pain on the right side')).toEqual(['M25.561']);
    expect(codesIn('this is a sprain of the left knee')).toEqual(['S83.92XA']);
    expect(codesIn('this looks like hallux rigidus of the right foot')).toEqual(['M20.21']);
  });
  it('treats a ruled-out condition as negated', () => {
    expect(codesIn("i don't think that this is a sign of a stroke")).toEqual([]);
  });
  it('codes lay-term conditions with their HCC', () => {
    const res = generate(`[doctor] you have a history of sugar diabetes ?\n[patient] yes .\n[doctor] so for your diabetes , continue metformin 500 mg twice a day .\n[patient] okay .`);
    expect(res.structured_data.diagnoses.values.map((d) => d.codes.map((c) => c.code))).toContainEqual(['E11.9', 'HCC38']);
  });
});
