/**
 * What the language model is asked to answer (a JSON schema for structured outputs) and how its answer is
 * read: wrappers a local model adds around the JSON are taken off, a cut-off or malformed answer is refused
 * whole (never applied in part), and the result must match the schema exactly.
 */
import { z } from 'zod';
import { UnusableAnswer, type ChatAnswer } from './openai-client';

const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const evidence = { type: 'array', items: { type: 'string' } } as const;

/** JSON schema for structured outputs (strict mode: every property required, no extras). */
export const NOTE_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['sections', 'diagnoses', 'medication_orders'],
  properties: {
    sections: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['loinc_code', 'sentences'],
        properties: {
          loinc_code: { type: 'string' },
          sentences: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['text', 'evidence'], properties: { text: { type: 'string' }, evidence } },
          },
        },
      },
    },
    diagnoses: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'icd10_code', 'diagnosis_note', 'laterality', 'evidence'],
        properties: {
          description: { type: 'string' },
          icd10_code: nullableString,
          diagnosis_note: { type: 'string' },
          laterality: { type: ['string', 'null'], enum: ['LEFT', 'RIGHT', 'BILATERAL', null] },
          evidence,
        },
      },
    },
    medication_orders: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['drug_name', 'rxnorm_code', 'dose_quantity', 'dose_unit', 'frequency', 'timing', 'route', 'duration_in_days', 'number_of_refills', 'instructions', 'status', 'evidence'],
        properties: {
          drug_name: { type: 'string' },
          rxnorm_code: nullableString,
          dose_quantity: nullableNumber,
          dose_unit: nullableString,
          frequency: nullableString,
          timing: nullableString,
          route: nullableString,
          duration_in_days: nullableNumber,
          number_of_refills: nullableNumber,
          instructions: nullableString,
          status: { type: 'string' },
          evidence,
        },
      },
    },
  },
} as const;

const Evidence = z.array(z.string());

export const LlmNote = z.object({
  sections: z.array(z.object({ loinc_code: z.string(), sentences: z.array(z.object({ text: z.string(), evidence: Evidence })) })),
  diagnoses: z.array(
    z.object({
      description: z.string().min(1),
      icd10_code: z.string().nullable(),
      diagnosis_note: z.string(),
      laterality: z.enum(['LEFT', 'RIGHT', 'BILATERAL']).nullable(),
      evidence: Evidence,
    }),
  ),
  medication_orders: z.array(
    z.object({
      drug_name: z.string().min(1),
      rxnorm_code: z.string().nullable(),
      dose_quantity: z.number().nullable(),
      dose_unit: z.string().nullable(),
      frequency: z.string().nullable(),
      timing: z.string().nullable(),
      route: z.string().nullable(),
      duration_in_days: z.number().nullable(),
      number_of_refills: z.number().nullable(),
      instructions: z.string().nullable(),
      status: z.string(),
      evidence: Evidence,
    }),
  ),
});
export type LlmNote = z.infer<typeof LlmNote>;

/**
 * The JSON object in an answer. Local servers without strict structured outputs wrap it in a code fence or
 * a sentence, and leave trailing commas; those are taken off. Nothing is added: a cut-off object is not
 * closed, so an answer that stopped half-way is refused rather than half-applied.
 */
export function extractJson(content: string): unknown {
  const unfenced = content.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
  const start = unfenced.indexOf('{');
  const end = unfenced.lastIndexOf('}');
  if (start < 0 || end < start) throw new UnusableAnswer('answered no JSON object');
  const body = unfenced.slice(start, end + 1);
  for (const text of [body, body.replace(/,(\s*[}\]])/g, '$1')]) {
    try {
      return JSON.parse(text);
    } catch {
      /* the next, repaired form is tried */
    }
  }
  throw new UnusableAnswer('answered malformed JSON');
}

/** The model's note, or UnusableAnswer (naming what was wrong by its path, never quoting the model). */
export function readNoteAnswer(answer: ChatAnswer): LlmNote {
  if (answer.finishReason === 'length') throw new UnusableAnswer('stopped at its token limit (the JSON is cut off)');
  const parsed = LlmNote.safeParse(extractJson(answer.content));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnusableAnswer(`answered JSON of the wrong shape (${issue?.path.join('.') || 'root'}: ${issue?.code ?? 'invalid'})`);
  }
  return parsed.data;
}
