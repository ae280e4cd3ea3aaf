import { describe, expect, it } from 'vitest';
import type { ContentResponse, MedicationOrder } from '@/lib/contracts/sessions';
import { formatNanoTimestamp, msToDuration, wallClock } from './time';
import { mergeContext } from './merge-context';
import { WAV_HEADER_BYTES, pcmBytesToMs, wavHeader } from './wav';
import { parseRange } from './range';
import { recordingAudioUrl, signRecording, verifyRecordingSignature } from './recording-url';
import { loincForHeading, metadataToContextPatch } from './metadata-to-context';
import { medicationOrderProblem, normaliseMedications } from './check-medication-orders';
import { mergeEncounterContent } from './merge-encounter-content';

describe('time formatting', () => {
  it('splits offsets into hours, minutes, seconds and nanos', () => {
    expect(msToDuration(0)).toEqual({ hours: 0, minutes: 0, seconds: 0, nanos: 0 });
    expect(msToDuration(3_723_450)).toEqual({ hours: 1, minutes: 2, seconds: 3, nanos: 450_000_000 });
    expect(msToDuration(-5)).toEqual({ hours: 0, minutes: 0, seconds: 0, nanos: 0 });
  });
  it('writes RFC 3339 UTC with nine fractional digits', () => {
    expect(formatNanoTimestamp(0n)).toBe('1970-01-01T00:00:00.000000000Z');
    expect(formatNanoTimestamp(1_767_225_601_250_000_123n)).toBe('2026-01-01T00:00:01.250000123Z');
  });
  it('adds an offset to a microsecond start time without losing precision', () => {
    const start = BigInt(Date.UTC(2026, 1, 1, 10, 0, 0)) * 1000n + 123n; // 10:00:00.000123
    expect(wallClock(start, 1_500)).toBe('2026-02-01T10:00:01.500123000Z');
    expect(wallClock(start, 59_999)).toBe('2026-02-01T10:00:59.999123000Z');
  });
});

describe('context merge', () => {
  it('deep-merges objects, replaces arrays and removes nulls', () => {
    const base = { patient: { dob: '1970-01-01', sex: 'male' }, sections: [{ loinc: 'a' }, { loinc: 'b' }], visit: { chief_complaint: 'cough' } };
    const merged = mergeContext(base, { patient: { sex: 'female' }, sections: [{ loinc: 'c' }], visit: null, emr: { target_emr: 'EPIC' } });
    expect(merged).toEqual({ patient: { dob: '1970-01-01', sex: 'female' }, sections: [{ loinc: 'c' }], emr: { target_emr: 'EPIC' } });
    expect(base.patient.sex).toBe('male');
  });
  it('starts from nothing', () => {
    expect(mergeContext(null, { visit: { chief_complaint: 'x', reason_for_visit: undefined } })).toEqual({ visit: { chief_complaint: 'x' } });
  });
});

describe('WAV header', () => {
  it('describes PCM16 16 kHz mono', () => {
    const h = wavHeader(32_000);
    expect(h.length).toBe(WAV_HEADER_BYTES);
    expect(h.toString('ascii', 0, 4)).toBe('RIFF');
    expect(h.readUInt32LE(4)).toBe(36 + 32_000);
    expect(h.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(h.readUInt16LE(20)).toBe(1);
    expect(h.readUInt16LE(22)).toBe(1);
    expect(h.readUInt32LE(24)).toBe(16_000);
    expect(h.readUInt32LE(28)).toBe(32_000);
    expect(h.readUInt16LE(32)).toBe(2);
    expect(h.readUInt16LE(34)).toBe(16);
    expect(h.toString('ascii', 36, 40)).toBe('data');
    expect(h.readUInt32LE(40)).toBe(32_000);
    expect(pcmBytesToMs(32_001)).toBe(1000);
  });
});

describe('Range parsing', () => {
  it('handles the byte-range forms', () => {
    expect(parseRange(null, 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=50-1000', 100)).toEqual({ kind: 'partial', start: 50, end: 99 });
  });
  it('reports unsatisfiable ranges and ignores ones it does not understand', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=9-3', 100)).toEqual({ kind: 'full' });
  });
});

describe('recording URL signing', () => {
  const key = Buffer.alloc(32, 7);
  const id = '0b6f3a4e-6a8e-4c4b-9d7e-1f2a3b4c5d6e';
  it('verifies its own signature until expiry', () => {
    const sig = signRecording(key, id, 2_000, false);
    expect(verifyRecordingSignature(key, id, 2_000, false, sig, 1_000)).toBe('ok');
    expect(verifyRecordingSignature(key, id, 2_000, false, sig, 2_001)).toBe('expired');
  });
  it('binds the id, expiry, download flag and key', () => {
    const sig = signRecording(key, id, 2_000, false);
    expect(verifyRecordingSignature(key, id.replace('0b6f', '0b6e'), 2_000, false, sig, 1_000)).toBe('invalid');
    expect(verifyRecordingSignature(key, id, 2_001, false, sig, 1_000)).toBe('invalid');
    expect(verifyRecordingSignature(key, id, 2_000, true, sig, 1_000)).toBe('invalid');
    expect(verifyRecordingSignature(Buffer.alloc(32, 8), id, 2_000, false, sig, 1_000)).toBe('invalid');
    expect(verifyRecordingSignature(key, id, 2_000, false, sig.slice(0, -2), 1_000)).toBe('invalid');
  });
  it('builds a URL that carries what it signs', () => {
    const { url, expiresAt } = recordingAudioUrl('https://svc.example', key, id, true, 1_000);
    const u = new URL(url);
    // not a request: the path the signed recording URL must carry
    expect(u.pathname).toBe(`/api/v1/recordings/${id}/audio`);
    expect(u.searchParams.get('download')).toBe('1');
    expect(Number(u.searchParams.get('expires'))).toBe(4_600);
    expect(expiresAt).toBe(new Date(4_600_000).toISOString());
    expect(verifyRecordingSignature(key, id, 4_600, true, u.searchParams.get('sig')!, 1_000)).toBe('ok');
  });
});

describe('metadata mapping', () => {
  it('maps headings onto LOINC sections', () => {
    expect(loincForHeading('History of Present Illness')).toBe('10164-2');
    expect(loincForHeading('HPI')).toBe('10164-2');
    expect(loincForHeading('Assessment & Plan')).toBe('51847-2');
    expect(loincForHeading('Favourite colour')).toBeUndefined();
  });
  it('builds a context patch', () => {
    expect(
      metadataToContextPatch({
        note_sections: [{ title: 'Chief Complaint' }, { title: 'Misc', description: 'Physical exam' }, { title: 'Something else' }],
        patient_dob: '1970-01-01',
        patient_sex: 'male',
        provider_specialty: 'CARDIOLOGY',
      }),
    ).toEqual({
      patient: { dob: '1970-01-01', sex: 'male' },
      provider: { specialty: 'CARDIOLOGY' },
      sections: [{ loinc: '10154-3' }, { loinc: '29545-1' }],
    });
    expect(metadataToContextPatch({ note_sections: [{ title: 'nothing known' }] })).toEqual({ sections: null });
    expect(metadataToContextPatch({})).toEqual({});
  });
});

describe('medication order check', () => {
  const ctx = (status: string, drug_name: string, code?: string) => ({
    orders: { medication_orders: { values: [{ drug_name: 'amoxicillin', status: 'NEW' as const }, { drug_name, status: status as 'NEW', ...(code ? { medication_code: { code, type: 'RXCUI' as const } } : {}) }] } },
  });
  const meds = normaliseMedications([
    { name: 'Lisinopril 10 MG Oral Tablet', rxcui: '314076', status: 'active' },
    { name: 'Metformin 500 MG Oral Tablet', status: 'stopped' },
    { name: 'Atenolol', status: 'completed', active: false },
  ]);
  it('reads stored medications with or without the active flag', () => {
    expect(meds.map((m) => [m.name, m.active])).toEqual([
      ['Lisinopril 10 MG Oral Tablet', true],
      ['Metformin 500 MG Oral Tablet', false],
      ['Atenolol', false],
    ]);
  });
  it('allows discontinuing or refilling a current medication, by name or RXCUI', () => {
    expect(medicationOrderProblem(ctx('DISCONTINUED', 'lisinopril'), meds)).toBeNull();
    expect(medicationOrderProblem(ctx('REFILLED', 'Zestril', '314076'), meds)).toBeNull();
    expect(medicationOrderProblem(ctx('NEW', 'atorvastatin'), meds)).toBeNull();
  });
  it('names the order that refers to a medication the patient is not on', () => {
    expect(medicationOrderProblem(ctx('DISCONTINUED', 'atorvastatin'), meds)).toBe(
      'orders.medication_orders.values[1]: atorvastatin is not an active medication for this patient, so it cannot be DISCONTINUED',
    );
    expect(medicationOrderProblem(ctx('REFILLED', 'metformin'), meds)).toMatch(/^orders\.medication_orders\.values\[1\]: metformin is not an active medication/);
    expect(medicationOrderProblem(ctx('DISCONTINUED', 'atenolol'), meds)).toMatch(/atenolol is not an active medication/);
    expect(medicationOrderProblem(ctx('REFILLED', 'metformin'), null)).toMatch(/no EMR medication list is known for this patient/);
  });
});

describe('encounter content merge', () => {
  const order = (drug: string, rxcui: string | null, qty: number, status = 'NEW'): MedicationOrder => ({
    drug_name: drug,
    medication_code: rxcui ? { code: rxcui, type: 'RXCUI' } : null,
    status,
    dosage: { quantity: qty, unit: 'MG', raw_value: `${qty} mg` },
    frequency: { raw_value: null, structured_value: null },
    medication_timing: null,
    route: null,
    duration_in_days: null,
    number_of_refills: null,
    instructions: null,
    metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: [],
  });
  const note = (n: number, opts: { sections: Array<[string, string]>; dx: string[]; orders: MedicationOrder[] }): ContentResponse => ({
    summary: opts.sections.map(([loinc, content]) => ({ title: loinc, content, loinc_code: loinc, source_transcripts: [`t${n}`] })),
    structured_data: {
      diagnoses: { values: opts.dx.map((code) => ({ codes: [{ code, description: `${code} in ${n}`, type: 'ICD10' as const }], diagnosis_note: '' })) },
      orders: { medication_orders: { values: opts.orders, partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] },
      section_structured_values: [{ loinc: '10190-7', template_id: 'phq-2', values: [{ id: 'interest', value: n === 1 ? 'Not at all' : 'Several days' }] }],
    },
  });
  it('joins sections by LOINC and deduplicates diagnoses and orders', () => {
    const merged = mergeEncounterContent([
      note(1, { sections: [['10164-2', 'First HPI.'], ['51847-2', 'Plan one.']], dx: ['I10', 'E11.9'], orders: [order('lisinopril', '29046', 10)] }),
      note(2, { sections: [['10164-2', 'Second HPI.'], ['10187-3', 'ROS.']], dx: ['I10'], orders: [order('lisinopril', '29046', 10, 'CHANGED'), order('lisinopril', '29046', 20)] }),
    ]);
    expect(merged.summary.map((s) => [s.loinc_code, s.content, s.source_transcripts])).toEqual([
      ['10164-2', 'First HPI.\n\nSecond HPI.', ['t1', 't2']],
      ['51847-2', 'Plan one.', ['t1']],
      ['10187-3', 'ROS.', ['t2']],
    ]);
    expect(merged.structured_data.diagnoses.values.map((d) => d.codes[0]!.description)).toEqual(['I10 in 2', 'E11.9 in 1']);
    expect(merged.structured_data.orders.medication_orders.values.map((o) => [o.dosage.quantity, o.status])).toEqual([
      [10, 'CHANGED'],
      [20, 'NEW'],
    ]);
    expect(merged.structured_data.section_structured_values).toEqual([{ loinc: '10190-7', template_id: 'phq-2', values: [{ id: 'interest', value: 'Several days' }] }]);
  });
  it('is empty for no notes', () => {
    expect(mergeEncounterContent([])).toEqual({
      summary: [],
      structured_data: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] },
    });
  });
});
