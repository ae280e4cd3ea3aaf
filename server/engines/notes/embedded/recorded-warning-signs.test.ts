/**
 * A 98 s diabetes, hypertension and new-heartburn follow-up recorded in Chromium in Festival voices (2 Dec browser trial,
 * the network cut for 6 s at 27 s, a reload at the end), as the recogniser gave it (recorded-heartburn-warning-98s.json).
 * Faults a clinician found reading the note:
 * - "If you have chest pain, black stools, or trouble swallowing, call us right away or go to the emergency room", its
 *   "chest" and "black" unsure: "trouble swallowing" stood alone after the "if", was coded R13.10 dysphagia, made problem
 *   1 "Trouble swallowing" and reached the after-visit summary as "We found: dysphagia".
 * - "I [am ordering a] hemoglobin a wanted [and] the basic metabolic panel today": the note kept "The basic metabolic panel
 *   today.", a noun phrase whose verb was not heard, filed as reasoning.
 * - "This is not your heart", said after the heartburn talk and naming no problem, was filed under the diabetes (the first
 *   problem), as its medical reasoning.
 * - "Keep taking the lisinopril ten milligrams daily" was no plan line: Hypertension stood with nothing under it.
 */
import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-heartburn-warning-98s.json';

const note = new EmbeddedNotesEngine().generateSync({ transcript: recordedTranscript(RECORDED as RecordedLine[]), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const plan = note.summary.find((s) => s.loinc_code === '51847-2')?.content ?? '';
/** The lines under a numbered problem of the plan, up to the next one. */
const under = (name: string) => plan.split(/\n(?=\d+\. )/).find((b) => b.startsWith(`${b.match(/^\d+\. /)?.[0] ?? ''}${name}`)) ?? '';

describe('recorded visit: warning signs, an unheard order verb, remarks filed where they were said', () => {
  it('codes the warning signs to act on as no diagnosis, and keeps the conditions assessed', () => {
    const codes = note.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes.filter((c) => /^R13/.test(c))).toEqual([]);
    expect(plan).not.toMatch(/Trouble swallowing|Dysphagia/i);
    expect(codes).toEqual(expect.arrayContaining(['E11.9', 'I10', 'K21.9']));
  });

  it('writes no noun phrase left by an unheard verb, and lists the sentence for the review', () => {
    expect(plan).not.toMatch(/The basic metabolic panel today\./);
    expect(note.left_out).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'LOW_CONFIDENCE', text: expect.stringMatching(/basic metabolic panel today/) })]));
  });

  it('files a remark naming no problem under the problem talked of just before it, and the lisinopril kept under hypertension', () => {
    expect(under('Heartburn')).toMatch(/This is not their heart\./);
    expect(under('Diabetes')).not.toMatch(/heart\./);
    expect(under('Hypertension')).toMatch(/keep taking the lisinopril 10 mg daily/i);
  });

  it('keeps the medication decisions and the allergy', () => {
    const meds = Object.fromEntries(note.structured_data.orders.medication_orders.values.map((o) => [o.drug_name, o.status]));
    expect(meds).toEqual({ metformin: 'CHANGED', lisinopril: 'ACTIVE', omeprazole: 'NEW' });
    expect(note.summary.find((s) => s.loinc_code === '48765-2')?.content).toMatch(/Penicillin causes hives/);
  });
});

describe('recorded visit: one meal said is that meal', () => {
  it('times the omeprazole said "before breakfast" before breakfast, not before every meal', () => {
    const omeprazole = note.structured_data.orders.medication_orders.values.find((o) => o.drug_name === 'omeprazole');
    expect(omeprazole?.medication_timing).toBe('BEFORE_BREAKFAST');
  });
});
