import type { Encounter, Patient, Practitioner, QuestionnaireResponse, QuestionnaireResponseItem, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';
import { getFormTemplate } from '@/lib/info';
import type { StructuredData } from '@/lib/contracts/sessions';
import { deriveResourceId } from './derive-resource-id';
import { ref, type LocalSystems } from './systems';

type FormValues = StructuredData['section_structured_values'][number];

export interface QuestionnaireResponseInput {
  scopeId: string;
  form: FormValues;
  authored: string;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
  sys: LocalSystems;
}

function answers(type: string | undefined, value: unknown): QuestionnaireResponseItemAnswer[] {
  const values = Array.isArray(value) ? value : [value];
  return values
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map((v) => (type === 'date' && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? { valueDate: v } : { valueString: typeof v === 'string' ? v : JSON.stringify(v) }));
}

/**
 * One filled Embedded Form as a QuestionnaireResponse: each answered field an item (linkId = field id,
 * text = the field's label), dates as valueDate and options as valueString, so a PHQ-9 keeps its
 * validated item wording.
 */
export function buildQuestionnaireResponse(input: QuestionnaireResponseInput): QuestionnaireResponse {
  const template = getFormTemplate(input.form.template_id);
  const item: QuestionnaireResponseItem[] = [];
  for (const v of input.form.values) {
    const field = template?.fields.find((f) => f.id === v.id);
    const answer = answers(field?.type, v.value);
    if (answer.length === 0) continue;
    item.push({ linkId: v.id, ...(field ? { text: field.label } : {}), answer });
  }
  return {
    resourceType: 'QuestionnaireResponse',
    id: deriveResourceId('QuestionnaireResponse', input.scopeId, input.form.loinc, input.form.template_id),
    questionnaire: input.sys.questionnaire(input.form.template_id),
    status: 'completed',
    subject: ref(input.patient),
    encounter: ref(input.encounter),
    authored: input.authored,
    author: ref(input.practitioner),
    ...(item.length ? { item } : {}),
  };
}
