import { describe, expect, it } from 'vitest';
import { PatchPreferencesRequest } from './preferences';
import { NoteStyleRef, assertsPatientSpeech } from './note-style';

const ID = '0b7c8a2e-6a44-4d4e-9a57-1f0e2d3c4b5a';
const first = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  r.success ? null : `${r.error!.issues[0]!.path.join('.')}: ${r.error!.issues[0]!.message}`;

describe('note style contracts', () => {
  it('names built-in styles and templates', () => {
    for (const ok of ['SOAP', 'APSO', 'HP', 'PROGRESS', `template:${ID}`]) expect(NoteStyleRef.safeParse(ok).success).toBe(true);
    expect(first(NoteStyleRef.safeParse('HAIKU'))).toBe(': must be one of SOAP, APSO, HP, PROGRESS or template:<template id>');
  });

  it('refuses template text that says what the patient said or agreed to', () => {
    expect(assertsPatientSpeech('Patient agrees with the plan.')).toBe(true);
    expect(assertsPatientSpeech('Pt verbalized understanding.')).toBe(true);
    expect(assertsPatientSpeech('Risks discussed; agreed to proceed.')).toBe(true);
    expect(assertsPatientSpeech('Return precautions given.')).toBe(false);
    expect(assertsPatientSpeech('Differential diagnosis reviewed.')).toBe(false);
    const bad = PatchPreferencesRequest.safeParse({
      personalization_preference: { templates: [{ id: ID, name: 'Mine', sections: [{ loinc: '18776-5', heading: 'Plan', format: 'NARRATIVE', template_text: ['The patient states she understands.'] }] }] },
    });
    expect(first(bad)).toMatch(/^personalization_preference\.templates\.0\.sections\.0\.template_text\.0: must not state what the patient said or agreed to/);
  });

  it('checks a template before it is stored: sections, headings, duplicates, the default it names', () => {
    const tpl = (sections: unknown[]) => ({ personalization_preference: { templates: [{ id: ID, name: 'Mine', sections }] } });
    expect(first(PatchPreferencesRequest.safeParse(tpl([])))).toBe('personalization_preference.templates.0.sections: must hold at least one section');
    expect(first(PatchPreferencesRequest.safeParse(tpl([{ loinc: '18776-5', heading: ' ', format: 'NARRATIVE' }])))).toBe('personalization_preference.templates.0.sections.0.heading: must not be empty');
    const twice = tpl([{ loinc: '18776-5', heading: 'Plan', format: 'NARRATIVE' }, { loinc: '18776-5', heading: 'Plan 2', format: 'BULLETED' }]);
    expect(first(PatchPreferencesRequest.safeParse(twice))).toBe('personalization_preference.templates.0.sections.1.loinc: 18776-5 is listed twice');
    const other = { personalization_preference: { note_style: 'template:11111111-2222-4333-8444-555555555555', templates: [] } };
    expect(first(PatchPreferencesRequest.safeParse(other))).toBe('personalization_preference.note_style: names template 11111111-2222-4333-8444-555555555555, which is not among templates');
  });
});
