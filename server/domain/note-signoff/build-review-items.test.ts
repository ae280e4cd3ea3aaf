import { describe, expect, it } from 'vitest';
import { NOTE_ATTESTATION } from '@/lib/contracts/note-review';
import { emptyStructuredData, type RecordingGap } from '@/lib/contracts/sessions';
import { medicationOrder } from '../../test/medication-order';
import { EmbeddedNotesEngine } from '../../engines/notes/embedded/index';
import { dialogueToTranscript } from '../../engines/notes/embedded/dialogue';
import type { TranscriptLine } from '../../engines/notes/types';
import { buildReviewItems, type ReviewInputs } from './build-review-items';
import { checkReviewOutcome } from './check-review-outcome';
import { reviewItemId } from './review-item-id';

const transcript: TranscriptLine[] = [
  { transcriptId: 't1', speaker: 'CLINICIAN', text: 'How is your blood pressure at home?', startMs: 0, endMs: 2_000 },
  { transcriptId: 't2', speaker: 'PATIENT', text: 'It has been running about 150 over 95.', startMs: 2_100, endMs: 5_000 },
  { transcriptId: 't3', speaker: 'CLINICIAN', text: "Let's increase your lisinopril from 10 mg to 20 mg daily.", startMs: 5_100, endMs: 9_000 },
  { transcriptId: 't4', speaker: 'PATIENT', text: 'Okay, that sounds good.', startMs: 9_100, endMs: 10_000 },
];

const lisinopril = medicationOrder();

function inputs(edited: string[] = []): ReviewInputs {
  const structuredData = emptyStructuredData();
  structuredData.orders.medication_orders.values = [lisinopril];
  return {
    summary: [
      {
        title: 'History of present illness',
        loinc_code: '10164-2',
        content: 'Home blood pressure readings are about 150/95. The patient reports chest pain on exertion.',
        source_transcripts: ['t2'],
        sentences: [
          { text: 'Home blood pressure readings are about 150/95.', source_transcripts: ['t2'] },
          { text: 'The patient reports chest pain on exertion.', source_transcripts: [] },
        ],
      },
      { title: 'Medications', loinc_code: '10160-0', content: 'Lisinopril 10 mg daily.', source_transcripts: ['t3'], sentences: [{ text: 'Lisinopril 10 mg daily.', source_transcripts: ['t3'] }] },
      { title: 'Plan', loinc_code: '18776-5', content: 'Increase lisinopril from 10 mg to 20 mg daily.', source_transcripts: ['t3'] },
    ],
    structuredData,
    leftOut: [
      { reason: 'LOW_CONFIDENCE', kind: 'span', text: 'and the metformin', loinc_code: '10160-0', source_transcripts: ['t3'] },
      { reason: 'UNSUPPORTED', kind: 'sentence', text: 'The patient understands and agrees with the plan.', loinc_code: '18776-5', source_transcripts: [] },
    ],
    edited: new Set(edited),
    transcript,
    context: {},
  };
}

describe('buildReviewItems', () => {
  it('lists spans left out, facts removed, a dose that contradicts the coded order and a sentence nothing supports', () => {
    const items = buildReviewItems(inputs());
    expect(items.map((i) => [i.kind, i.text, i.section_title])).toEqual([
      ['LOW_CONFIDENCE', 'and the metformin', 'Medications'],
      ['UNSUPPORTED', 'The patient understands and agrees with the plan.', 'Plan'],
      ['NO_EVIDENCE', 'The patient reports chest pain on exertion.', 'History of present illness'],
      ['CONTRADICTION', 'Lisinopril 10 mg daily.', 'Medications'],
    ]);
    const clash = items.find((i) => i.kind === 'CONTRADICTION')!;
    expect(clash.detail).toBe('The note gives lisinopril 10 mg, but the coded order is 20 mg (CHANGED).');
    expect(items[0]!.source_transcripts).toEqual(['t3']);
    expect(items.every((i) => i.id === reviewItemId(i.kind, i.loinc_code, i.text))).toBe(true);
  });

  it('lists an allergy answer that could not be read, with why and the lines to listen to', () => {
    const input = inputs();
    input.leftOut = [{ reason: 'NOT_UNDERSTOOD', kind: 'allergy', text: 'Asked about allergies, the patient said: "self a drags kidney hives"', loinc_code: '48765-2', source_transcripts: ['t5', 't6'] }];
    const item = buildReviewItems(input).find((i) => i.kind === 'NOT_UNDERSTOOD');
    expect(item).toMatchObject({ text: 'Asked about allergies, the patient said: "self a drags kidney hives"', loinc_code: '48765-2', source_transcripts: ['t5', 't6'] });
    expect(item!.detail).toMatch(/could not be read as an allergy or as none, so no allergy was recorded/);
  });

  it('lists a dose said in words not read as an order, saying why, not as an allergy answer', () => {
    const input = inputs();
    const text = 'A dose of lisinopril was said that no order states: "i am going to knee greece the lisinopril to 20 milligrams once a day"';
    input.leftOut = [{ reason: 'NOT_UNDERSTOOD', kind: 'medication_order', text, loinc_code: '10160-0', source_transcripts: ['t4'] }];
    const item = buildReviewItems(input).find((i) => i.kind === 'NOT_UNDERSTOOD');
    expect(item).toMatchObject({ text, loinc_code: '10160-0', source_transcripts: ['t4'] });
    expect(item!.detail).toMatch(/could not be read as an order, so no order or medication line states it/);
    expect(item!.detail).not.toMatch(/allergy/);
  });

  it('says what an unsure span cost the note: the whole sentence, only its unsure words, or part of an order', () => {
    const input = inputs();
    input.leftOut = [
      { reason: 'LOW_CONFIDENCE', kind: 'sentence', text: 'If the patient has [unclear] pain [unclear] stools or trouble swallowing.', loinc_code: '51847-2', source_transcripts: ['t3'] },
      { reason: 'LOW_CONFIDENCE', kind: 'span', text: 'Their sugars are still [unclear] we will increase the metformin.', loinc_code: '51847-2', source_transcripts: ['t3'] },
      { reason: 'LOW_CONFIDENCE', kind: 'medication_order', text: 'metformin: dose not clear', source_transcripts: ['t3'] },
    ];
    const detail = (text: RegExp) => buildReviewItems(input).find((i) => i.kind === 'LOW_CONFIDENCE' && text.test(i.text))!.detail;
    expect(detail(/trouble swallowing/)).toMatch(/this whole sentence was left out of the note/);
    expect(detail(/sugars/)).toMatch(/they were left out; the note keeps only what stands without them/);
    expect(detail(/dose not clear/)).toMatch(/the coded order lacks what is named here/);
    expect(buildReviewItems(input).filter((i) => i.kind === 'LOW_CONFIDENCE').every((i) => !/these words, so they were left out of the note/.test(i.detail))).toBe(true);
  });

  it('lists an edited section once and no longer asks for evidence of its sentences, but still for contradictions', () => {
    const kinds = buildReviewItems(inputs(['10164-2', '10160-0'])).map((i) => `${i.kind}:${i.text}`);
    expect(kinds).toContain('EDITED_SECTION:History of present illness');
    expect(kinds).toContain('EDITED_SECTION:Medications');
    expect(kinds).toContain('CONTRADICTION:Lisinopril 10 mg daily.');
    expect(kinds).not.toContain('NO_EVIDENCE:The patient reports chest pain on exertion.');
  });

  it('asks about a coded diagnosis nothing in the visit names, unless the clinician entered it in the editor', () => {
    const diabetes = { codes: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' as const }], diagnosis_note: '' };
    const withDiabetes = inputs();
    withDiabetes.structuredData.diagnoses.values = [diabetes];
    const asked = buildReviewItems(withDiabetes).filter((i) => i.kind === 'NO_EVIDENCE' && i.text.startsWith('E11.9'));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.detail).toMatch(/^Coded item: Not found in the transcript/);

    const entered = { ...emptyStructuredData(), diagnoses: { values: [diabetes] } };
    const kinds = buildReviewItems({ ...withDiabetes, clinicianEntered: entered }).map((i) => `${i.kind}:${i.text}`);
    expect(kinds.filter((k) => k.includes('E11.9'))).toEqual([]);
    expect(kinds).toContain('CONTRADICTION:Lisinopril 10 mg daily.');
  });
  it('lists each stretch of the visit no recording holds, with where, how long and when, and nothing without one', () => {
    expect(buildReviewItems(inputs()).filter((i) => i.kind === 'NOT_RECORDED')).toEqual([]);
    const gap = { at_offset: { hours: 0, minutes: 0, seconds: 37, nanos: 200_000_000 }, start_time: '2026-11-28T10:42:05.120Z', end_time: '2026-11-28T10:42:17.480Z', duration_ms: 12_360, cause: null };
    const items = buildReviewItems({ ...inputs(), recordingGaps: [gap] }).filter((i) => i.kind === 'NOT_RECORDED');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ text: 'Not recorded: 12 s at 0:37', loinc_code: null, section_title: null, source_transcripts: [] });
    expect(items[0]!.detail).toContain('Nothing was recorded for 12 s where the transcript reaches 0:37');
    // No clock time: the server knows no signer's time zone (a browser trial read 09:43 UTC beside 03:43 AM).
    expect(items[0]!.detail).not.toMatch(/\d\d:\d\d:\d\d/);
    expect(items[0]!.detail).toContain('not in the transcript or this note');
    // The signer must decide on it like any other item: signing without a decision is refused.
    expect(() => checkReviewOutcome({ attested: true, items: [] }, items)).toThrow(/review\.items/);
  });
  it("names the cause the recorder gave: a pause as the clinician's own, a reload or the microphone as what stopped the recording", () => {
    const base = { at_offset: { hours: 0, minutes: 3, seconds: 10, nanos: 0 }, start_time: '2026-11-28T10:42:05.120Z', end_time: '2026-11-28T10:42:50.120Z', duration_ms: 45_000 };
    const item = (cause: RecordingGap['cause']) => buildReviewItems({ ...inputs(), recordingGaps: [{ ...base, cause }] }).find((i) => i.kind === 'NOT_RECORDED')!;
    const paused = item('PAUSED');
    expect(paused.text).toBe('Recording paused: 45 s at 3:10');
    expect(paused.detail).toBe(
      'Recording was paused for 45 s where the transcript reaches 3:10 (its "Recording paused" line gives the time of day). Anything said then is not in the transcript or this note; add it if it matters.',
    );
    expect(item('PAGE_RELOADED')).toMatchObject({
      text: 'Not recorded: 45 s at 3:10',
      detail: expect.stringContaining('Nothing was recorded for 45 s where the transcript reaches 3:10 (its "Not recorded" line gives the time of day): the page was reloaded before recording continued. Anything said then'),
    });
    expect(item('CAPTURE_STALLED').detail).toContain(': the microphone delivered no sound (the computer was too busy to capture it). ');
    expect(item('MICROPHONE_DISCONNECTED').detail).toContain(': the microphone was disconnected until recording was started again. ');
    // A named cause replaces the list of every possible one.
    expect(item('PAGE_RELOADED').detail).not.toContain('a pause, a page reload');
    expect(item(null).detail).toContain('recording was paused or stopped (a pause, a page reload)');
  });
  it('lists a coded order whose dose is implausible for its drug, with its transcript line, and refuses signing without a decision', () => {
    // The browser trial: "lisinopril 10 grams" heard and coded as said; nothing in the review named it.
    const input = inputs();
    const tenGrams = medicationOrder({ status: 'NEW', dosage: { quantity: 10, unit: 'G', raw_value: '10 grams' }, source_transcripts: ['t3'] });
    input.structuredData.orders.medication_orders.values = [tenGrams];
    const items = buildReviewItems(input).filter((i) => i.kind === 'IMPLAUSIBLE_DOSE');
    expect(items).toEqual([
      {
        id: reviewItemId('IMPLAUSIBLE_DOSE', null, 'lisinopril 10 g daily'),
        kind: 'IMPLAUSIBLE_DOSE',
        text: 'lisinopril 10 g daily',
        detail: expect.stringMatching(/^10 g of lisinopril is above its usual dose \(2\.5-80 mg a day\); check the dose before signing\./),
        loinc_code: null,
        section_title: null,
        source_transcripts: ['t3'],
      },
    ]);
    expect(() => checkReviewOutcome({ attested: true, items: [] }, items)).toThrow(/^review\.items: 1 item of the review has no decision \(IMPLAUSIBLE_DOSE "lisinopril 10 g daily"\)/);
    const decided = checkReviewOutcome({ attested: true, items: items.map((i) => ({ id: i.id, kind: i.kind, text: i.text, loinc_code: i.loinc_code, decision: 'ACKNOWLEDGED' as const })) }, items);
    expect(decided.items).toEqual([{ id: items[0]!.id, kind: 'IMPLAUSIBLE_DOSE', text: 'lisinopril 10 g daily', loinc_code: null, decision: 'ACKNOWLEDGED' }]);

    // The usual dose, and a drug the table does not hold, are not listed.
    input.structuredData.orders.medication_orders.values = [medicationOrder(), medicationOrder({ drug_name: 'unobtainium', dosage: { quantity: 10, unit: 'G', raw_value: '10 g' } })];
    expect(buildReviewItems(input).filter((i) => i.kind === 'IMPLAUSIBLE_DOSE')).toEqual([]);
  });

  it('flags the browser trial\'s "lisinopril 10 grams" as the embedded engine codes it, faithful to the visit', () => {
    const heard = dialogueToTranscript(
      "[doctor] Your blood pressure is high today, 160 over 100.\n[patient] I have not been taking anything for it.\n[doctor] Let's start lisinopril 10 grams once a day.\n[patient] Okay.",
    );
    const note = new EmbeddedNotesEngine().generateSync({ transcript: heard, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
    // The engine keeps the order as heard; the review, not the engine, asks the signer about it.
    expect(note.structured_data.orders.medication_orders.values).toEqual([expect.objectContaining({ drug_name: 'lisinopril', dosage: { quantity: 10, unit: 'G', raw_value: '10 grams' } })]);
    const items = buildReviewItems({ summary: note.summary, structuredData: { ...emptyStructuredData(), ...note.structured_data }, leftOut: note.left_out ?? [], edited: new Set(), transcript: heard, context: {} });
    const dose = items.filter((i) => i.kind === 'IMPLAUSIBLE_DOSE');
    expect(dose.map((i) => [i.text, i.source_transcripts])).toEqual([['lisinopril 10 g once a day', [heard[2]!.transcriptId]]]);
  });

  it('checks an order the clinician entered in the structured-data editor, and a partial order, the same way', () => {
    const input = inputs();
    // As buildMedicationOrder stores an editor entry: origin USER, the unit code the form offers, no transcript line.
    const entered = medicationOrder({
      drug_name: 'levothyroxine',
      medication_code: { code: '10582', type: 'RXCUI' },
      status: 'NEW',
      dosage: { quantity: 100, unit: 'MG', raw_value: '100 mg' },
      frequency: { raw_value: 'once a day', structured_value: 'ONE_A_DAY' },
      metadata: { origin: 'USER', encounter_relation: 'CURRENT_ENCOUNTER' },
    });
    input.structuredData.orders.medication_orders.values = [entered];
    input.structuredData.orders.medication_orders.partial_values = [medicationOrder({ drug_name: 'metformin', dosage: { quantity: 5000, unit: 'MG', raw_value: '5000 mg' }, frequency: { raw_value: null, structured_value: null } })];
    input.clinicianEntered = { ...emptyStructuredData(), orders: { medication_orders: { values: [entered], partial_values: [] }, service_orders: { values: [] } } };
    const items = buildReviewItems(input).filter((i) => i.kind === 'IMPLAUSIBLE_DOSE');
    expect(items.map((i) => [i.text, i.source_transcripts])).toEqual([
      ['levothyroxine 100 mg once a day', []],
      ['metformin 5000 mg', []],
    ]);
    expect(items[0]!.detail).toMatch(/^100 mg of levothyroxine is above its usual dose \(12\.5-300 mcg a day\)/);
  });

  it('says why a dose is implausible at its frequency: the day\'s total above the maximum, or a weekly drug taken more often', () => {
    const input = inputs();
    const sig = (drug_name: string, quantity: number, raw_value: string, structured_value: string) =>
      medicationOrder({ drug_name, status: 'NEW', dosage: { quantity, unit: 'MG', raw_value: `${quantity} mg` }, frequency: { raw_value, structured_value } });
    input.structuredData.orders.medication_orders.values = [
      sig('metformin', 1000, 'four times a day', 'FOUR_A_DAY'),
      sig('methotrexate', 15, 'daily', 'ONE_A_DAY'),
      sig('alendronate', 70, 'daily', 'ONE_A_DAY'),
      // Usual at their frequency: not listed.
      sig('metformin', 1000, 'twice a day', 'TWO_A_DAY'),
      sig('methotrexate', 15, 'once a week', 'ONCE_A_WEEK'),
      sig('alendronate', 10, 'daily', 'ONE_A_DAY'),
    ];
    const items = buildReviewItems(input).filter((i) => i.kind === 'IMPLAUSIBLE_DOSE');
    const fix = ' The order is coded as it was said or entered; correct it in the structured data if the dose or frequency is wrong.';
    expect(items.map((i) => [i.text, i.detail])).toEqual([
      [
        'metformin 1000 mg four times a day',
        '1000 mg four times a day of metformin is 4000 mg a day, above its usual maximum (500-2550 mg a day); check the dose and frequency before signing.' + fix,
      ],
      ['methotrexate 15 mg daily', 'methotrexate is taken once a week (7.5-30 mg a week); 15 mg once a day is 105 mg a week. Check the frequency before signing.' + fix],
      [
        'alendronate 70 mg daily',
        'alendronate is taken once a week (35-70 mg a week) or daily (5, 10 or 40 mg a day); 70 mg once a day is 490 mg a week (70 mg a day). Check the dose and frequency before signing.' + fix,
      ],
    ]);
  });
});

describe('checkReviewOutcome', () => {
  const items = buildReviewItems(inputs());
  const decide = (list = items) => list.map((i) => ({ id: i.id, kind: i.kind, text: i.text, loinc_code: i.loinc_code, decision: 'ACKNOWLEDGED' as const }));

  it('keeps every decision with the attestation', () => {
    const out = checkReviewOutcome({ attested: true, items: decide() }, items);
    expect(out.attestation).toBe(NOTE_ATTESTATION);
    expect(out.items).toHaveLength(items.length);
    expect(out.items[0]).toEqual({ id: items[0]!.id, kind: 'LOW_CONFIDENCE', text: 'and the metformin', loinc_code: '10160-0', decision: 'ACKNOWLEDGED' });
  });

  it('refuses, naming review.items, while a listed item has no decision', () => {
    expect(() => checkReviewOutcome({ attested: true, items: decide(items.slice(1)) }, items)).toThrow(/^review\.items: 1 item of the review has no decision \(LOW_CONFIDENCE "and the metformin"\)/);
  });

  it('refuses a decision whose id does not match its kind, section and text', () => {
    const forged = decide();
    forged[0] = { ...forged[0]!, text: 'something else' };
    expect(() => checkReviewOutcome({ attested: true, items: forged }, items)).toThrow(/^review\.items\[0\]\.id: does not match/);
  });

  it('keeps a decision for an item an edit resolved, which the review no longer lists', () => {
    const out = checkReviewOutcome({ attested: true, items: [{ ...decide()[3]!, decision: 'RESOLVED' }, ...decide(items.slice(0, 3))] }, items.slice(0, 3));
    expect(out.items[0]).toMatchObject({ kind: 'CONTRADICTION', decision: 'RESOLVED' });
  });
});
