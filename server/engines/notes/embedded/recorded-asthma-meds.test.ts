/**
 * A 62 s asthma and cholesterol follow-up recorded in Chromium in Festival voices (28 Nov browser trial), as the
 * recogniser gave it. The clinician said "I will restart fluticasone two hundred fifty micrograms, two puffs twice a
 * day", "Keep the albuterol for shortness of breath as needed" and "Continue atorvastatin twenty milligrams at night";
 * the recogniser wrote "micro grams", "a night", and heard "restart", "two" (of two hundred) and "keep" unsure. The
 * note lost the albuterol's as-needed reason and the atorvastatin's frequency, and a clean "keep the albuterol …"
 * ordered nothing.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-asthma-lipids-62s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
type Note = ReturnType<typeof generate>;
const orders = (r: Note) => [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];
const order = (r: Note, drug: string) => orders(r).find((o) => o.drug_name === drug);
const section = (r: Note, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const note = (dialogue: string) => generate(dialogueToTranscript(dialogue));
// How this engine codes "continue X" (continued-orders.ts): ACTIVE, of this encounter.
const CONTINUED = { status: 'ACTIVE', metadata: expect.objectContaining({ encounter_relation: 'CURRENT_ENCOUNTER' }) };

describe('the recorded asthma and cholesterol visit', () => {
  const r = generate(recordedTranscript(RECORDED as RecordedLine[]));

  it('keeps the albuterol as needed for shortness of breath, from the clinician\'s words, without claiming the unheard "keep"', () => {
    // "keep" was heard at 0.46: the clinician's verb is unknown, so the drug stays the one the patient takes (r3),
    // completed by what was heard clearly: for shortness of breath as needed (r12).
    expect(order(r, 'albuterol')).toMatchObject({
      status: 'ACTIVE',
      as_needed: true,
      as_needed_reason: 'shortness of breath',
      frequency: { raw_value: 'as needed', structured_value: 'AS_NEEDED' },
      source_transcripts: expect.arrayContaining(['r3', 'r12']),
    });
  });

  it('codes the atorvastatin heard as "twenty milligrams a night" at bedtime, continued', () => {
    expect(order(r, 'atorvastatin')).toMatchObject({
      ...CONTINUED,
      dosage: { quantity: 20, unit: 'MG', raw_value: '20 milligrams' },
      frequency: { raw_value: 'a night', structured_value: 'AT_BEDTIME' },
      medication_timing: 'AT_BEDTIME',
      source_transcripts: ['r13'],
    });
  });

  it('never codes the tail of a strength whose first word was unsure, and lists that strength for the review', () => {
    // "[unclear] hundred fifty micro grams": 250 or 150, it is not 50.
    const flu = order(r, 'fluticasone')!;
    expect(flu).toMatchObject({ status: 'NEW', dosage: { quantity: 2, unit: 'PUFF', raw_value: '2 puffs' }, frequency: { structured_value: 'TWO_A_DAY' }, source_transcripts: ['r11'] });
    expect(orders(r).map((o) => o.dosage.quantity)).not.toContain(50);
    expect(section(r, '10160-0')).not.toMatch(/\b50\b/);
    expect(section(r, '10160-0')).toMatch(/^Fluticasone 2 puffs twice daily\.$/m);
    expect(r.left_out).toContainEqual(
      expect.objectContaining({ reason: 'NOT_UNDERSTOOD', kind: 'medication_order', text: expect.stringMatching(/^A dose of fluticasone was said that was not heard whole: ".*\[unclear\] hundred 50 micro grams 2 puffs/), source_transcripts: ['r11'] }),
    );
  });
});

describe('continuations, as-needed reasons, two-word units and "at night" in a clean dialogue', () => {
  it('"keep the albuterol for shortness of breath as needed" continues it, as needed for shortness of breath', () => {
    const r = note('[doctor] keep the albuterol for shortness of breath as needed');
    expect(order(r, 'albuterol')).toMatchObject({ ...CONTINUED, as_needed: true, as_needed_reason: 'shortness of breath', source_transcripts: ['t1'] });
  });

  it.each([
    ['keep taking the lisinopril ten milligrams daily', 'lisinopril', 10],
    ['keep using the albuterol two puffs every six hours as needed', 'albuterol', 2],
    ['stay on the metformin five hundred milligrams twice a day', 'metformin', 500],
    ['i want you to stay on atorvastatin forty milligrams', 'atorvastatin', 40],
  ])('"%s" is a continuation like "continue"', (said, drug, quantity) => {
    expect(order(note(`[doctor] ${said}`), drug)).toMatchObject({ ...CONTINUED, dosage: expect.objectContaining({ quantity }) });
  });

  it('"keep" continues only the drug kept: "keep an eye on …", "keep your blood pressure down with X" do not', () => {
    expect(order(note('[doctor] keep an eye on your sugars and start metformin five hundred milligrams twice a day'), 'metformin')).toMatchObject({ status: 'NEW' });
    expect(order(note('[doctor] let us keep your blood pressure down with lisinopril ten milligrams daily'), 'lisinopril')).toMatchObject({ status: 'NEW' });
  });

  it('"restart" orders the drug anew, its strength said in "micro grams" kept with the puffs per dose', () => {
    const r = note(`[doctor] i understand you're here for your asthma
[patient] i ran out of my fluticasone last month
[doctor] i will restart fluticasone two hundred fifty micro grams two puffs twice a day`);
    expect(order(r, 'fluticasone')).toMatchObject({
      status: 'NEW',
      dosage: { quantity: 250, unit: 'MCG', raw_value: '250 micrograms 2 puffs' },
      instructions: '2 puffs',
      frequency: { structured_value: 'TWO_A_DAY' },
      route: 'INHALATION',
      source_transcripts: expect.arrayContaining(['t3']),
    });
    expect(section(r, '10160-0')).toMatch(/^Fluticasone 250 mcg 2 puffs twice daily\.$/m);
    expect(section(r, '51847-2')).toMatch(/\bfluticasone 250 mcg 2 puffs twice daily\./);
    expect(r.left_out ?? []).not.toContainEqual(expect.objectContaining({ kind: 'medication_order' }));
  });

  it('a strength and its puffs said of a drug not taken before are listed with both', () => {
    const r = note('[doctor] i will start fluticasone two hundred fifty micro grams two puffs twice a day');
    expect(section(r, '10160-0')).toMatch(/^Fluticasone 250 mcg 2 puffs twice daily\.$/m);
  });

  it('"milli grams" is read as milligrams', () => {
    expect(order(note('[doctor] start metformin five hundred milli grams twice a day'), 'metformin')).toMatchObject({
      status: 'NEW',
      dosage: { quantity: 500, unit: 'MG', raw_value: '500 milligrams' },
      frequency: { structured_value: 'TWO_A_DAY' },
    });
  });

  it.each([
    ['continue atorvastatin twenty milligrams at night', 'at night'],
    ['continue atorvastatin twenty milligrams nightly', 'nightly'],
    ['continue atorvastatin twenty milligrams at bedtime', 'at bedtime'],
    ['continue atorvastatin twenty milligrams a night', 'a night'],
    ['continue atorvastatin twenty milligrams once a night', 'once a night'],
  ])('"%s" is at bedtime', (said, raw) => {
    expect(order(note(`[doctor] ${said}`), 'atorvastatin')).toMatchObject({ ...CONTINUED, frequency: { raw_value: raw, structured_value: 'AT_BEDTIME' } });
  });

  it('"a day" stays once a day, and "a night" not after a dose is no frequency', () => {
    expect(order(note('[doctor] start lisinopril ten milligrams a day'), 'lisinopril')?.frequency).toEqual({ raw_value: 'a day', structured_value: 'ONE_A_DAY' });
    expect(order(note('[doctor] after a night like that we will start prednisone forty milligrams'), 'prednisone')?.frequency).toEqual({ raw_value: null, structured_value: null });
  });
});
