import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zodMessage } from '@/server/http/zod-message';
import {
  CreateSessionRequest,
  PatchContextRequest,
  PatchPreferencesRequest,
  RecordingQuery,
  RewriteRequest,
  SessionMetadataRequest,
  SetContextRequest,
  isCalendarDate,
} from './sessions';

function message(schema: z.ZodType, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : zodMessage(r.error, 'body');
}

describe('create session request', () => {
  it('accepts an empty body and the deprecated fields', () => {
    expect(message(CreateSessionRequest, {})).toBeNull();
    expect(message(CreateSessionRequest, { multilingual: true, session_group_id: crypto.randomUUID() })).toBeNull();
  });
  it('names a bad UUID', () => {
    expect(message(CreateSessionRequest, { encounter_id: 'abc' })).toBe('encounter_id: must be a UUID');
    expect(message(CreateSessionRequest, { ambient_session_id: 42 })).toMatch(/^ambient_session_id: /);
  });
  it('refuses encounter_id and session_group_id that disagree', () => {
    expect(message(CreateSessionRequest, { encounter_id: crypto.randomUUID(), session_group_id: crypto.randomUUID() })).toMatch(/^session_group_id: must equal encounter_id/);
  });
});

describe('session context', () => {
  it('accepts a full context', () => {
    const ctx = {
      patient: { dob: '1980-02-29', sex: 'female', emr_patient_id: 'MRN-1' },
      provider: { specialty: 'CARDIOLOGY', provider_role: 'ATTENDING' },
      visit: { chief_complaint: 'chest pain', reason_for_visit: 'follow-up', encounter_type: 'AMBULATORY', visit_type: 'ESTABLISHED_PATIENT' },
      sections: [
        { loinc: '10164-2', precharted_content: [{ type: 'string', content: 'Prior HPI text' }] },
        { loinc: '10190-7', precharted_content: [{ type: 'structured', template_id: 'phq-2', values: [{ id: 'interest', value: 'Several days' }, { id: 'date_administered', value: '2025-01-02' }] }] },
      ],
      diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential hypertension', type: 'ICD10' }], diagnosis_note: 'stable' }] },
      orders: {
        medication_orders: {
          values: [
            {
              drug_name: 'lisinopril',
              medication_code: { code: '29046', type: 'RXCUI' },
              status: 'CONTINUED',
              dosage: { quantity: 10, unit: 'MG', raw_value: '10 mg' },
              frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' },
            },
          ],
        },
      },
      emr: { target_emr: 'EPIC' },
    };
    const r = SetContextRequest.safeParse(ctx);
    expect(r.success ? null : zodMessage(r.error, 'body')).toBeNull();
    expect(r.data).toEqual(ctx);
  });

  it('also accepts the context wrapped as {context}', () => {
    expect(SetContextRequest.parse({ context: { visit: { chief_complaint: 'cough' } } })).toEqual({ visit: { chief_complaint: 'cough' } });
  });

  it('says SNOMED is no longer supported', () => {
    expect(message(SetContextRequest, { diagnoses: { values: [{ codes: [{ code: '38341003', description: 'HTN', type: 'SNOMED' }] }] } })).toBe(
      'diagnoses.values[0].codes[0].type: SNOMED is no longer supported in the diagnosis context; use ICD10 or IMO',
    );
  });

  it('names the field for bad codes and lengths', () => {
    expect(message(SetContextRequest, { sections: [{ loinc: '12345-6' }] })).toMatch(/^sections\[0\]\.loinc: not a supported LOINC section code/);
    expect(message(SetContextRequest, { visit: { chief_complaint: 'x'.repeat(256) } })).toBe('visit.chief_complaint: must be at most 255 characters');
    expect(message(SetContextRequest, { visit: { chief_complaint: 'x'.repeat(255) } })).toBeNull();
    expect(message(SetContextRequest, { visit: { visit_type: 'PICNIC' } })).toMatch(/^visit\.visit_type: not a supported visit type/);
    expect(message(SetContextRequest, { provider: { specialty: 'ASTROLOGY' } })).toMatch(/^provider\.specialty: /);
    expect(message(SetContextRequest, { patient: { sex: 'M' } })).toBe('patient.sex: must be one of male, female, other, unknown');
    expect(message(SetContextRequest, { diagnoses: { values: [{ codes: [{ code: 'hello', type: 'ICD10' }] }] } })).toBe(
      'diagnoses.values[0].codes[0].code: hello is not an ICD-10-CM code',
    );
    expect(message(SetContextRequest, { orders: { medication_orders: { values: [{ drug_name: 'x', status: 'NEW', dosage: { unit: 'BUCKET' } }] } } })).toMatch(
      /^orders\.medication_orders\.values\[0\]\.dosage\.unit: not a supported medication dosage unit/,
    );
    expect(message(SetContextRequest, { orders: { medication_orders: { values: [{ drug_name: 'x', status: 'NEW', medication_code: { code: 'abc', type: 'RXCUI' } }] } } })).toBe(
      'orders.medication_orders.values[0].medication_code.code: abc is not a valid RXCUI code',
    );
  });

  it('checks birth dates', () => {
    expect(message(SetContextRequest, { patient: { dob: '2001-02-29' } })).toBe('patient.dob: must be a valid date written YYYY-MM-DD');
    expect(message(SetContextRequest, { patient: { dob: '01/02/2001' } })).toBe('patient.dob: must be a valid date written YYYY-MM-DD');
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect(message(SetContextRequest, { patient: { dob: future } })).toBe('patient.dob: must not be in the future');
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
  });

  it('checks Embedded Form values against the template', () => {
    const form = (values: unknown, template_id = 'phq-2') => ({ sections: [{ loinc: '10190-7', precharted_content: [{ type: 'structured', template_id, values }] }] });
    expect(message(SetContextRequest, form([], 'no-such-form'))).toMatch(/^sections\[0\]\.precharted_content\[0\]\.template_id: not a supported form template/);
    expect(message(SetContextRequest, form([{ id: 'shoe_size', value: '9' }]))).toMatch(/^sections\[0\]\.precharted_content\[0\]\.values\[0\]\.id: shoe_size is not a field of template phq-2/);
    expect(message(SetContextRequest, form([{ id: 'interest', value: 'Often' }]))).toMatch(/values\[0\]\.value: must be one of: Not at all, Several days/);
    expect(message(SetContextRequest, form([{ id: 'date_administered', value: '2024-13-01' }]))).toMatch(/values\[0\]\.value: must be a valid date/);
    expect(message(SetContextRequest, { sections: [{ loinc: '10190-7', precharted_content: [{ type: 'picture' }] }] })).toMatch(/precharted_content\[0\]/);
  });

  it('refuses a section listed twice', () => {
    expect(message(SetContextRequest, { sections: [{ loinc: '10164-2' }, { loinc: '10164-2' }] })).toBe('sections[1].loinc: 10164-2 is listed twice');
  });

  it('lets a patch null out members', () => {
    expect(PatchContextRequest.parse({ patient: null, visit: { chief_complaint: 'x' } })).toEqual({ patient: null, visit: { chief_complaint: 'x' } });
  });
});

describe('metadata', () => {
  it('validates the deprecated fields', () => {
    expect(message(SessionMetadataRequest, { note_sections: [{ title: 'HPI' }], patient_dob: '1970-01-01', patient_sex: 'male', provider_specialty: 'CARDIOLOGY' })).toBeNull();
    expect(message(SessionMetadataRequest, { patient_sex: 'x' })).toMatch(/^patient_sex: /);
  });
});

describe('rewrite request', () => {
  const base = { selected_text: 'abc', selection_start: 10, selection_end: 13, instruction: 'CONCISE' };
  it('accepts consistent offsets', () => expect(message(RewriteRequest, base)).toBeNull());
  it('requires end - start to equal the selection length', () => {
    expect(message(RewriteRequest, { ...base, selection_end: 14 })).toMatch(/^selection_end: selection_end - selection_start \(4\) must equal the length of selected_text \(3\)/);
    expect(message(RewriteRequest, { ...base, selection_end: 9 })).toBe('selection_end: must not be before selection_start');
    expect(message(RewriteRequest, { ...base, selection_start: 1.5 })).toBe('selection_start: must be an integer');
  });
  it('bounds the selection and the instruction', () => {
    expect(message(RewriteRequest, { ...base, selected_text: '', selection_end: 10 })).toBe('selected_text: must not be empty');
    expect(message(RewriteRequest, { ...base, selected_text: 'a'.repeat(10_001), selection_end: 10_011 })).toBe('selected_text: must be at most 10000 characters');
    expect(message(RewriteRequest, { ...base, instruction: 'SHOUT' })).toBe('instruction: must be one of CONCISE, VERBOSE, PATIENT_FRIENDLY');
  });
});

describe('preferences and recording query', () => {
  it('validates preferences', () => {
    expect(message(PatchPreferencesRequest, { personalization_preference: { verbosity: 'CONCISE', section_format: [{ loinc: '10164-2', style: 'BULLETED' }] } })).toBeNull();
    expect(message(PatchPreferencesRequest, { personalization_preference: { verbosity: 'LOUD' } })).toBe('personalization_preference.verbosity: must be one of CONCISE, BALANCED, DETAILED');
    expect(message(PatchPreferencesRequest, { personalization_preference: { section_format: [{ loinc: '10164-2', style: 'POEM' }] } })).toMatch(/section_format\[0\]\.style/);
  });
  it('reads download as a boolean', () => {
    expect(RecordingQuery.parse({ download: 'true' })).toEqual({ download: true });
    expect(RecordingQuery.parse({ download: 'false' })).toEqual({ download: false });
    expect(RecordingQuery.safeParse({ download: 'maybe' }).success).toBe(false);
  });
});
