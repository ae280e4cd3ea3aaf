import { describe, expect, it } from 'vitest';
import { FREQUENCY_TYPE_CODES, MEDICATION_TIMING_CODES, DOSAGE_UNIT_CODES } from '@/lib/info';
import { builtinCodeIndex } from '@/server/codesets/index';
import type { NoteRequest, TranscriptLine } from '../types';
import { EmbeddedNotesEngine } from './index';
import { analyze, conditionMentions } from './analyze';
import { findDrugs, parseOrder } from './meds';
import { dialogueToTranscript } from './dialogue';
import { toThirdPerson } from './text';

const engine = new EmbeddedNotesEngine({ codes: builtinCodeIndex() });

const VISIT = `[doctor] hi mrs. jones , how are you doing today ?
[patient] not great . i've been having pain in my right knee for two weeks .
[doctor] i'm sorry to hear that . did you injure it ?
[patient] i twisted it playing tennis and it swelled up .
[doctor] any fever or chills ?
[patient] no .
[doctor] any chest pain or shortness of breath ?
[patient] no , none of that .
[doctor] does your mother have any medical problems ?
[patient] my mother has rheumatoid arthritis .
[doctor] and how is your diabetes ? are you taking your metformin ?
[patient] yes , i take metformin 500 mg twice a day with meals .
[doctor] any allergies to medications ?
[patient] no .
[doctor] okay , let me examine you . your heart sounds normal , regular rate and rhythm . your lungs are clear . on exam of the right knee there is swelling and tenderness on the medial side .
[doctor] your x-ray showed no fracture .
[doctor] so my impression is you have a right knee sprain . i'm going to prescribe meloxicam 15 mg once a day for 14 days . i want you to ice the knee and rest .
[doctor] for your type 2 diabetes , continue metformin 500 mg twice a day with meals , and we will check a hemoglobin a1c .
[patient] okay , sounds good .`;

function request(extra: Partial<NoteRequest> = {}): NoteRequest {
  return { transcript: dialogueToTranscript(VISIT), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} }, ...extra };
}

describe('medication parsing', () => {
  it('parses "metformin 500 mg twice a day with meals" into a coded order', () => {
    const s = 'continue metformin 500 mg twice a day with meals';
    const o = parseOrder(s, findDrugs(s)[0], builtinCodeIndex());
    expect(o.drug_name).toBe('metformin');
    expect(o.medication_code).toEqual({ code: '6809', type: 'RXCUI' });
    expect(o.dosage).toMatchObject({ quantity: 500, unit: 'MG' });
    expect(o.frequency.structured_value).toBe('TWO_A_DAY');
    expect(o.medication_timing).toBe('WITH_MEALS');
    expect(o.status).toBe('CONTINUED');
    expect(DOSAGE_UNIT_CODES).toContain(o.dosage.unit);
    expect(FREQUENCY_TYPE_CODES).toContain(o.frequency.structured_value);
    expect(MEDICATION_TIMING_CODES).toContain(o.medication_timing);
  });
  it('resolves brand names, spoken numbers, duration and refills', () => {
    const s = 'start lasix twenty milligrams by mouth every morning for 2 weeks with 3 refills';
    const o = parseOrder(s, findDrugs(s)[0], builtinCodeIndex());
    expect(o.drug_name).toBe('furosemide');
    expect(o.dosage.quantity).toBe(20);
    expect(o.route).toBe('ORAL');
    expect(o.duration_in_days).toBe(14);
    expect(o.number_of_refills).toBe(3);
    expect(o.status).toBe('NEW');
  });
});

describe('negation and history', () => {
  const line = (text: string): TranscriptLine => ({ transcriptId: 'x', speaker: 'CLINICIAN', text, startMs: 0, endMs: 1 });
  it('marks denied and family-history conditions', () => {
    const a = analyze([line('she denies chest pain. her mother had breast cancer. she has hypertension.')]);
    const ms = a.sentences.flatMap((s) => conditionMentions(s));
    expect(ms.find((m) => m.code === 'R07.9')?.negated).toBe(true);
    expect(ms.find((m) => m.code === 'C50.919')?.family).toBe(true);
    expect(ms.find((m) => m.code === 'I10')).toMatchObject({ negated: false, family: false });
  });
  it('keeps denied and family conditions out of the diagnoses', async () => {
    const r = await engine.generate(request());
    const codes = r.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes).not.toContain('M06.9'); // mother's rheumatoid arthritis
    expect(codes).not.toContain('R50.9'); // denied fever
    expect(codes).not.toContain('R07.9'); // denied chest pain
  });
});

describe('ICD-10-CM and HCC coding', () => {
  it('codes the problems with laterality and the V28 HCC (V24 selectable)', async () => {
    const r = await engine.generate(request());
    const dx = r.structured_data.diagnoses.values;
    const knee = dx.find((d) => d.codes[0].code === 'S83.91XA');
    expect(knee?.laterality_indicator).toBe('RIGHT');
    const dm = dx.find((d) => d.codes[0].code === 'E11.9');
    expect(dm?.codes).toContainEqual({ code: 'HCC38', description: 'Diabetes with Glycemic, Unspecified, or No Complications', type: 'HCC' });
    expect(dm?.diagnosis_note).toMatch(/metformin/i);
    const v24 = await engine.generate(request({ hccModel: 'V24' }));
    expect(v24.structured_data.diagnoses.values.find((d) => d.codes[0].code === 'E11.9')?.codes[1].code).toBe('HCC19');
  });
});

describe('note sections', () => {
  it('writes the default sections under their LOINC codes in note voice with source links', async () => {
    const r = await engine.generate(request());
    const by = Object.fromEntries(r.summary.map((s) => [s.loinc_code, s]));
    expect(Object.keys(by)).toEqual(['10154-3', '10164-2', '10187-3', '29545-1', '30954-2', '51847-2', '10160-0', '48765-2']);
    expect(by['10154-3'].content).toMatch(/knee/i);
    const hpi = by['10164-2'].content;
    expect(hpi).toMatch(/She has been having pain in her right knee for 2 weeks\./);
    expect(hpi).toMatch(/She denies fever or chills\./);
    expect(hpi).not.toMatch(/\bI've\b|\bmy\b/);
    expect(by['10187-3'].content).toMatch(/Constitutional: Denies fever, chills/);
    expect(by['29545-1'].content).toMatch(/Respiratory: .*clear/);
    expect(by['29545-1'].content).toMatch(/Musculoskeletal: .*medial/);
    expect(by['30954-2'].content).toMatch(/x-ray showed no fracture/i);
    const ap = by['51847-2'].content;
    expect(ap).toMatch(/Right knee sprain\./);
    expect(ap).toMatch(/Medical Treatment: We will prescribe meloxicam 15 mg daily for 14 days\./);
    expect(ap).toMatch(/Additional Testing: .*hemoglobin a1c/i);
    expect(by['48765-2'].content).toBe('No known drug allergies.');
    // Every sentence names the transcript entries it came from, and they exist.
    const ids = new Set(dialogueToTranscript(VISIT).map((l) => l.transcriptId));
    for (const s of r.summary) {
      for (const id of s.source_transcripts) expect(ids.has(id)).toBe(true);
      for (const sent of s.sentences ?? []) expect(sent.source_transcripts.length, sent.text).toBeGreaterThan(0);
    }
    const hpiSent = by['10164-2'].sentences!.find((s) => /right knee for 2 weeks/.test(s.text))!;
    expect(hpiSent.source_transcripts).toEqual(['t2']);
  });

  it('structures the medication orders from the conversation', async () => {
    const r = await engine.generate(request());
    const orders = r.structured_data.orders.medication_orders.values;
    const met = orders.find((o) => o.drug_name === 'metformin')!;
    // Continued is an ACTIVE order of this encounter (issue 29 item 3).
    expect(met).toMatchObject({ status: 'ACTIVE', dosage: { quantity: 500, unit: 'MG' }, frequency: { structured_value: 'TWO_A_DAY' }, medication_timing: 'WITH_MEALS' });
    expect(met.metadata).toEqual({ origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' });
    const mel = orders.find((o) => o.drug_name === 'meloxicam')!;
    expect(mel).toMatchObject({ status: 'NEW', duration_in_days: 14, dosage: { quantity: 15 } });
    expect(mel.linked_diagnosis_codes).toEqual(['S83.91XA']);
  });

  it('moves an order the EMR cannot confirm and incomplete orders to partial_values', async () => {
    const r = await engine.generate(request({ emrContext: { medications: [{ name: 'lisinopril', rxcui: '29046' }], problems: [] } }));
    const partial = r.structured_data.orders.medication_orders.partial_values.map((o) => o.drug_name);
    expect(partial).toContain('metformin');
    const t = [{ transcriptId: 'a', speaker: 'CLINICIAN' as const, text: "i'm going to start you on lisinopril.", startMs: 0, endMs: 1 }];
    const r2 = await engine.generate({ transcript: t, sections: [{ loinc: '51847-2' }], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
    expect(r2.structured_data.orders.medication_orders.partial_values[0]).toMatchObject({ drug_name: 'lisinopril', dosage: { quantity: null } });
  });

  it('follows verbosity and bulleted format preferences and requested sections', async () => {
    const concise = await engine.generate(request({ sections: [{ loinc: '10164-2' }], preferences: { verbosity: 'CONCISE', sectionFormat: {} } }));
    const detailed = await engine.generate(request({ sections: [{ loinc: '10164-2' }], preferences: { verbosity: 'DETAILED', sectionFormat: {} } }));
    expect(concise.summary).toHaveLength(1);
    expect(concise.summary[0].content.length).toBeLessThan(detailed.summary[0].content.length);
    const bulleted = await engine.generate(request({ sections: [{ loinc: '10164-2' }], preferences: { verbosity: 'BALANCED', sectionFormat: { '10164-2': 'BULLETED' } } }));
    expect(bulleted.summary[0].content.split('\n').filter(Boolean).every((l) => l.startsWith('• '))).toBe(true);
  });

  it('infers the clinician from content when speaker tags are swapped', async () => {
    const swapped = VISIT.replace(/\[doctor\]/g, '[x]').replace(/\[patient\]/g, '[doctor]').replace(/\[x\]/g, '[patient]');
    const r = await engine.generate({ ...request(), transcript: dialogueToTranscript(swapped) });
    expect(r.summary.find((s) => s.loinc_code === '10164-2')!.content).toMatch(/pain in her right knee/);
    expect(r.structured_data.orders.medication_orders.values.map((o) => o.drug_name)).toContain('meloxicam');
  });

  it('converts first-person speech to third person', () => {
    expect(toThirdPerson("i've been taking my pills and i feel better", 'male')).toBe('he has been taking his pills and he feels better');
    expect(toThirdPerson("i don't smoke", 'female')).toBe('she does not smoke');
  });
});

describe('embedded forms', () => {
  it('fills radio, multi_select, text and date fields and keeps prefilled values', async () => {
    const transcript = dialogueToTranscript(`[doctor] have you fallen in the past year ?
[patient] yes , i fell twice .
[doctor] how many times ?
[patient] 2 times .
[doctor] were you injured ?
[patient] no .
[doctor] when was the date of your most recent fall ?
[patient] it was march 3rd , 2025 .
[doctor] do you use any mobility aids like a cane or walker ?
[patient] i use a cane .`);
    const r = await engine.generate({
      transcript,
      sections: [{ loinc: '10164-2', precharted: [{ type: 'structured', template_id: 'steadi-fall-risk', values: [{ id: 'worries_about_falling', value: 'Yes' }] }] }],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    const v = Object.fromEntries(r.structured_data.section_structured_values[0].values.map((x) => [x.id, x.value]));
    expect(r.structured_data.section_structured_values[0]).toMatchObject({ loinc: '10164-2', template_id: 'steadi-fall-risk' });
    expect(v).toMatchObject({ worries_about_falling: 'Yes', fallen_past_year: 'Yes', fall_injury: 'No', falls_count: '2', last_fall_date: '2025-03-03' });
    expect(v.mobility_aids).toEqual(['Cane']);
  });
});
