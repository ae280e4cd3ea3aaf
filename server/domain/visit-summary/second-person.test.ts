/**
 * Issue 29 item 7: the after-visit summary is safe to hand over. Grammar is checked over every plan sentence
 * the notes engine writes for ACI-BENCH valid; the issue's visit pins the medicines, the allergy and the test.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISSUE27_VISIT } from '@/bench/faithfulness/issue27-visit';
import { emptyStructuredData, type StructuredData } from '@/lib/contracts/sessions';
import { dialogueToTranscript } from '@/server/engines/notes/embedded/dialogue';
import { EmbeddedNotesEngine } from '@/server/engines/notes/embedded/index';
import { buildVisitSummary } from './build-visit-summary';
import { agreeWithYou, fitForPatient } from './second-person';

const ID = '00000000-0000-4000-8000-000000000001';
const engine = new EmbeddedNotesEngine();
const write = (dialogue: string) => engine.generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
// A third-person verb left after "you" ("you understands", "you presents", "you has", "you is").
const DISAGREES = /\byou (?:(?:also|still|now|usually|often|never|then|already) )?(?:is|was|has|does|goes|[a-z]+[^su's]s)\b/i;
const VALID = path.resolve(import.meta.dirname, '../../../../shared/data/aci-bench/valid.jsonl');

describe('the summary speaks to the patient', () => {
  it('makes the verb agree with "you"', () => {
    expect(agreeWithYou('You understands and agrees with the plan.')).toBe('You understand and agree with the plan.');
    expect(agreeWithYou('You presents today for knee pain.')).toBe('You present today for knee pain.');
    expect(agreeWithYou('You has been taking metformin. You is doing well. You also reports pain.')).toBe('You have been taking metformin. You are doing well. You also report pain.');
    expect(agreeWithYou('You always use your inhaler.')).toBe('You always use your inhaler.');
  });

  it.runIf(existsSync(VALID))('has no "you" with a third-person verb, no [unclear] and no speech to the room, over every plan sentence of valid', () => {
    const rows = readFileSync(VALID, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string });
    let sentences = 0;
    for (const r of rows) {
      const note = write(r.dialogue);
      const avs = buildVisitSummary(ID, note.summary, note.structured_data, null);
      for (const s of [...avs.plan, ...avs.follow_up, ...avs.get_help, ...avs.about]) {
        sentences++;
        const you = s.replace(/\byou and\b/gi, '');
        expect(DISAGREES.test(you) && !/\byou (?:always|sometimes|perhaps)\b/i.test(you), `${r.encounter_id}: ${s}`).toBe(false);
        expect(fitForPatient(s), `${r.encounter_id}: ${s}`).toBe(true);
      }
    }
    expect(sentences).toBeGreaterThan(40);
  });
});

describe('the issue-29 visit', () => {
  it('lists each medicine with what to do, the allergy, the test, and never [unclear] or the clinician talking', () => {
    const note = write(ISSUE27_VISIT);
    const structured = {
      ...note.structured_data,
      allergies: { values: [{ substance: 'Penicillin', substance_code: null, reaction: 'rash', verification: 'REPORTED' }] },
      orders: {
        ...note.structured_data.orders,
        service_orders: { values: [{ name: 'Basic metabolic panel', category: 'LAB', code: null, timing: null }] },
      },
    } as unknown as StructuredData;
    const summary = [...note.summary, { loinc_code: '51847-2', title: 'Plan', content: 'Plan [unclear] lisinopril. Let me take a look at your knee. Does that sound good?', source_transcripts: [] }];
    const avs = buildVisitSummary(ID, summary, structured, null);
    expect(avs.text).not.toMatch(/\[unclear\]|let me|\?/i);
    expect(avs.medicines.map((m) => m.change).sort()).toEqual(expect.arrayContaining(['CHANGE', 'KEEP']));
    expect(avs.medicines.find((m) => m.drug === 'metformin')?.text).toMatch(/^Keep taking metformin/);
    expect(avs.allergies).toEqual(['You are allergic to penicillin. Reaction: rash.']);
    expect(avs.text).not.toMatch(/presents? to the clinic|with me\b/);
    expect(avs.tests).toEqual(['Lab test: Basic metabolic panel.']);
    expect(avs.text).toContain('Your allergies');
  });

  it('says an as-needed medicine and a dose change in words', () => {
    const base = emptyStructuredData();
    const o = (x: object) => ({ medication_code: null, frequency: { raw_value: null, structured_value: null }, medication_timing: null, route: null, duration_in_days: null, number_of_refills: null, instructions: null, metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT' }, linked_diagnosis_codes: [], ...x });
    base.orders.medication_orders.values = [
      o({ drug_name: 'acetaminophen', status: 'ACTIVE', dosage: { quantity: 500, unit: 'MG', raw_value: null }, as_needed: true, as_needed_reason: 'knee pain' }),
      o({ drug_name: 'lisinopril', status: 'CHANGED', dosage: { quantity: 20, unit: 'MG', raw_value: null }, previous_dosage: { quantity: 10, unit: 'MG', raw_value: null } }),
    ] as never;
    const avs = buildVisitSummary(ID, [], base, null);
    expect(avs.medicines[0]!.text).toContain('Take it only when you need it for knee pain.');
    expect(avs.medicines[1]!.text).toBe('Change lisinopril from 10 mg to 20 mg.');
  });

  it('says as-needed once when the order\'s instructions repeat it, and keeps the rest of them', () => {
    const base = emptyStructuredData();
    const o = (x: object) => ({ medication_code: null, frequency: { raw_value: 'every 6 hours', structured_value: 'EVERY_6_HOURS' }, medication_timing: null, route: null, duration_in_days: null, number_of_refills: null, metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT' }, linked_diagnosis_codes: [], status: 'NEW', dosage: { quantity: 500, unit: 'MG', raw_value: null }, as_needed: true, as_needed_reason: 'pain', ...x });
    // As a visit recorded in the browser gave it (2 Dec): "Take it only when you need it for pain. When you need it for pain."
    base.orders.medication_orders.values = [o({ drug_name: 'acetaminophen', instructions: 'as needed for pain' }), o({ drug_name: 'ibuprofen', instructions: 'as needed for pain, with food' })] as never;
    const avs = buildVisitSummary(ID, [], base, null);
    expect(avs.medicines[0]!.text).toBe('Start taking acetaminophen 500 mg. Take it every 6 hours. Take it only when you need it for pain.');
    expect(avs.medicines[1]!.text).toMatch(/^Start taking ibuprofen 500 mg\. Take it every 6 hours\. Take it only when you need it for pain\. .*with food/i);
    expect(avs.medicines[1]!.text.match(/when you need it/g)).toHaveLength(1);
  });
});
