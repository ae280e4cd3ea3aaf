import { z } from 'zod';
import {
  DOSAGE_UNIT_CODES,
  FREQUENCY_TYPE_CODES,
  MEDICATION_ORDER_STATUS_CODES,
  MEDICATION_TIMING_CODES,
} from '@/lib/info';
import { defaultCodeIndex, type CodeIndex } from '@/server/codesets/index';
import type { Diagnosis, MedicationOrder, NoteRequest, NoteResult, NotesEngine, RewriteRequest } from './types';
import { EmbeddedNotesEngine } from './embedded/index';
import { conditionMatcher, tokenize } from './embedded/lexicon';
import { findDrugs, isCompleteOrder, parseFrequency, parseTiming } from './embedded/meds';
import { DEFAULT_NOTE_SECTIONS, SECTION_TITLES, STATUS, UNIT_CODES } from './embedded/vocab';

export interface OpenAINotesEngineOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  codes?: CodeIndex;
  fallback?: NotesEngine;
  fetchImpl?: typeof fetch;
}

const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

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
        required: ['loinc_code', 'content', 'source_transcripts'],
        properties: { loinc_code: { type: 'string' }, content: { type: 'string' }, source_transcripts: { type: 'array', items: { type: 'string' } } },
      },
    },
    diagnoses: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'icd10_code', 'diagnosis_note', 'laterality'],
        properties: {
          description: { type: 'string' },
          icd10_code: nullableString,
          diagnosis_note: { type: 'string' },
          laterality: { type: ['string', 'null'], enum: ['LEFT', 'RIGHT', 'BILATERAL', null] },
        },
      },
    },
    medication_orders: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['drug_name', 'dose_quantity', 'dose_unit', 'frequency', 'timing', 'route', 'duration_in_days', 'number_of_refills', 'instructions', 'status'],
        properties: {
          drug_name: { type: 'string' },
          dose_quantity: nullableNumber,
          dose_unit: nullableString,
          frequency: nullableString,
          timing: nullableString,
          route: nullableString,
          duration_in_days: nullableNumber,
          number_of_refills: nullableNumber,
          instructions: nullableString,
          status: { type: 'string' },
        },
      },
    },
  },
} as const;

const LlmNote = z.object({
  sections: z.array(z.object({ loinc_code: z.string(), content: z.string(), source_transcripts: z.array(z.string()) })),
  diagnoses: z.array(
    z.object({
      description: z.string().min(1),
      icd10_code: z.string().nullable(),
      diagnosis_note: z.string(),
      laterality: z.enum(['LEFT', 'RIGHT', 'BILATERAL']).nullable(),
    }),
  ),
  medication_orders: z.array(
    z.object({
      drug_name: z.string().min(1),
      dose_quantity: z.number().nullable(),
      dose_unit: z.string().nullable(),
      frequency: z.string().nullable(),
      timing: z.string().nullable(),
      route: z.string().nullable(),
      duration_in_days: z.number().nullable(),
      number_of_refills: z.number().nullable(),
      instructions: z.string().nullable(),
      status: z.string(),
    }),
  ),
});
type LlmNote = z.infer<typeof LlmNote>;

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }), finish_reason: z.string().nullable().optional() })).min(1),
});

const SYSTEM_PROMPT = `You are a medical scribe. From the visit transcript, write the clinical note a good scribe would write.
Write each requested section as clinical prose in the third person ("The patient is a 45-year-old female who presents for ...", "She reports ...", "She denies ...").
Do not invent facts. Keep every number, drug, dose, laterality and negation exactly as stated.
For each section list the transcript ids its sentences came from.
Diagnoses: only conditions the patient has (not denied, not family history), with the ICD-10-CM code.
Medication orders: only orders the clinician makes or changes in this visit; status is one of ${MEDICATION_ORDER_STATUS_CODES.join(', ')};
frequency one of ${FREQUENCY_TYPE_CODES.join(', ')}; timing one of ${MEDICATION_TIMING_CODES.join(', ')} or null; dose_unit one of ${DOSAGE_UNIT_CODES.join(', ')}.`;

const REWRITE_PROMPTS: Record<RewriteRequest['instruction'], string> = {
  CONCISE: 'Rewrite the selected clinical note text to be more concise: remove redundancy and filler. Keep every clinical fact (numbers, drugs, doses, laterality, negations).',
  VERBOSE: 'Rewrite the selected clinical note text in fuller sentences, expanding abbreviations. Add no new facts; keep every clinical fact.',
  PATIENT_FRIENDLY: 'Rewrite the selected clinical note text for the patient at a sixth-grade reading level, replacing medical jargon with plain words. Keep every clinical fact.',
};

/** Notes through an OpenAI-compatible chat-completions endpoint; output is validated and coded locally. */
export class OpenAINotesEngine implements NotesEngine {
  readonly name = 'openai';
  private codes: CodeIndex;
  private fallback: NotesEngine;
  private fetchImpl: typeof fetch;
  constructor(private opts: OpenAINotesEngineOptions) {
    this.codes = opts.codes ?? defaultCodeIndex();
    this.fallback = opts.fallback ?? new EmbeddedNotesEngine({ codes: this.codes });
    this.fetchImpl = opts.fetchImpl ?? fetch;
  }

  private async chat(body: Record<string, unknown>): Promise<string> {
    const res = await this.fetchImpl(`${this.opts.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.opts.model, ...body }),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
    });
    if (!res.ok) throw new Error(`chat completions answered ${res.status}`);
    const parsed = ChatCompletion.parse(await res.json());
    const content = parsed.choices[0].message.content;
    if (!content) throw new Error('chat completions returned no content');
    return content;
  }

  async generate(req: NoteRequest): Promise<NoteResult> {
    const sections = req.sections?.length ? req.sections.map((s) => s.loinc) : [...DEFAULT_NOTE_SECTIONS];
    const base = await this.fallback.generate(req);
    try {
      const transcript = req.transcript.map((l) => `[${l.transcriptId}] ${l.speaker}: ${l.text}`).join('\n');
      const user = [
        `Sections (LOINC: heading): ${sections.map((c) => `${c}: ${SECTION_TITLES[c] ?? c}`).join('; ')}`,
        `Verbosity: ${req.preferences?.verbosity ?? 'BALANCED'}. Bulleted sections: ${Object.entries(req.preferences?.sectionFormat ?? {}).filter(([, v]) => v === 'BULLETED').map(([k]) => k).join(', ') || 'none'}.`,
        req.visit?.chief_complaint ? `Chief complaint: ${req.visit.chief_complaint}` : '',
        req.patient ? `Patient: ${JSON.stringify(req.patient)}` : '',
        req.emrContext ? `EMR medications: ${req.emrContext.medications.map((m) => m.name).join(', ')}` : '',
        'Transcript:',
        transcript,
      ].filter(Boolean).join('\n');
      const content = await this.chat({
        messages: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: user }],
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'clinical_note', strict: true, schema: NOTE_JSON_SCHEMA } },
      });
      const llm = LlmNote.parse(JSON.parse(content));
      return this.toResult(llm, req, sections, base);
    } catch {
      // The cloud service is optional: any transport, format or validation failure yields the embedded note.
      return base;
    }
  }

  private toResult(llm: LlmNote, req: NoteRequest, sections: string[], base: NoteResult): NoteResult {
    const ids = new Set(req.transcript.map((l) => l.transcriptId));
    const summary = sections.map((loinc) => {
      const s = llm.sections.find((x) => x.loinc_code === loinc);
      return {
        title: SECTION_TITLES[loinc] ?? loinc,
        content: s?.content.trim() ?? '',
        loinc_code: loinc,
        source_transcripts: [...new Set((s?.source_transcripts ?? []).filter((id) => ids.has(id)))],
      };
    });
    const model = req.hccModel ?? 'V28';
    const diagnoses: Diagnosis[] = [];
    for (const d of llm.diagnoses) {
      // The model's code is trusted only if the code set knows it; otherwise the description is coded locally.
      let icd = d.icd10_code ? this.codes.icd10(d.icd10_code) : undefined;
      if (!icd) {
        const m = conditionMatcher.match(tokenize(d.description)).sort((a, b) => b.end - b.start - (a.end - a.start))[0];
        icd = m ? this.codes.icd10(m.id) : undefined;
      }
      if (!icd || diagnoses.some((x) => x.codes[0].code === icd!.code)) continue;
      const codes: Diagnosis['codes'] = [{ code: icd.code, description: icd.description, type: 'ICD10' }];
      const hcc = this.codes.hcc(icd.code, model);
      if (hcc) codes.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
      diagnoses.push({ codes, diagnosis_note: d.diagnosis_note, ...(d.laterality ? { laterality_indicator: d.laterality } : {}) });
    }
    const values: MedicationOrder[] = [];
    const partial: MedicationOrder[] = [];
    const emr = req.emrContext?.medications;
    for (const o of llm.medication_orders) {
      const ingredient = findDrugs(o.drug_name)[0]?.ingredient ?? o.drug_name.toLowerCase();
      const concept = this.codes.rxByName(ingredient);
      const freq = o.frequency && (FREQUENCY_TYPE_CODES as readonly string[]).includes(o.frequency) ? o.frequency : parseFrequency(o.frequency ?? '').code;
      const timing = o.timing && (MEDICATION_TIMING_CODES as readonly string[]).includes(o.timing) ? o.timing : parseTiming(o.timing ?? '');
      const unit = o.dose_unit && (DOSAGE_UNIT_CODES as readonly string[]).includes(o.dose_unit.toUpperCase()) ? o.dose_unit.toUpperCase() : UNIT_CODES[(o.dose_unit ?? '').toLowerCase()] ?? null;
      const status = (MEDICATION_ORDER_STATUS_CODES as readonly string[]).includes(o.status) ? o.status : STATUS.NEW;
      const order: MedicationOrder = {
        drug_name: ingredient,
        medication_code: concept ? { code: concept.rxcui, type: 'RXCUI' } : null,
        status,
        dosage: { quantity: o.dose_quantity, unit, raw_value: o.dose_quantity !== null ? `${o.dose_quantity} ${o.dose_unit ?? ''}`.trim() : null },
        frequency: { raw_value: o.frequency, structured_value: freq },
        medication_timing: timing,
        route: o.route ? o.route.toUpperCase() : null,
        duration_in_days: o.duration_in_days,
        number_of_refills: o.number_of_refills,
        instructions: o.instructions,
        metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
        linked_diagnosis_codes: [],
      };
      const unconfirmed = emr && ['DISCONTINUED', 'REFILLED', 'CONTINUED', 'CHANGED'].includes(status) && !emr.some((m) => m.name.toLowerCase().includes(ingredient) || (concept && m.rxcui === concept.rxcui));
      (isCompleteOrder(order) && !unconfirmed ? values : partial).push(order);
    }
    return {
      summary,
      structured_data: {
        diagnoses: { values: diagnoses },
        orders: { medication_orders: { values, partial_values: partial } },
        // Form filling is deterministic and field-type checked, so the embedded filler answers it.
        section_structured_values: base.structured_data.section_structured_values,
      },
    };
  }

  async rewrite(req: RewriteRequest): Promise<string> {
    try {
      const content = await this.chat({
        temperature: 0,
        messages: [
          { role: 'system', content: `${REWRITE_PROMPTS[req.instruction]} Answer with the rewritten text only.` },
          { role: 'user', content: `Context before: ${req.contextBefore ?? ''}\nSelected text: ${req.selectedText}\nContext after: ${req.contextAfter ?? ''}` },
        ],
      });
      return content.trim();
    } catch {
      return this.fallback.rewrite(req);
    }
  }
}
