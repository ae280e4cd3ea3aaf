/**
 * The model's validated answer as a NoteResult: sections from its sentences with the evidence ids that exist,
 * diagnoses and orders coded through the code sets (openai-codes.ts). What cannot be coded is left out and
 * listed in left_out; whether each remaining fact is in the visit is the guard's job (guard/).
 */
import { DOSAGE_UNIT_CODES, FREQUENCY_TYPE_CODES, MEDICATION_ORDER_STATUS_CODES, MEDICATION_TIMING_CODES } from '@/lib/info';
import type { CodeIndex } from '@/server/codesets/index';
import type { Allergy, Diagnosis, LeftOutItem, MedicationOrder, NoteRequest, NoteResult, NoteSection, SectionStructuredValues, ServiceOrder } from './types';
import type { LlmNote } from './openai-answer';
import { checkIcd10, checkRxNorm } from './openai-codes';
import { isCompleteOrder, parseFrequency, parseTiming } from './embedded/meds';
import { SECTION_TITLES, STATUS, UNIT_CODES } from './embedded/vocab';
import { continuedAsActive } from './continued-orders';

const oneOf = (list: readonly string[], v: string | null | undefined) => (v && list.includes(v) ? v : undefined);

function sectionsOf(llm: LlmNote, req: NoteRequest, loincs: string[], known: Set<string>): NoteSection[] {
  const bulleted = req.preferences?.sectionFormat ?? {};
  return loincs.map((loinc) => {
    // A section the model wrote twice is read as one; its sentences stay in the order written.
    const sentences = llm.sections
      .filter((x) => x.loinc_code === loinc)
      .flatMap((x) => x.sentences)
      .map((s) => ({ text: s.text.trim().replace(/^[-•*]\s+/, ''), source_transcripts: [...new Set(s.evidence.filter((id) => known.has(id)))] }))
      .filter((s) => s.text);
    const content = bulleted[loinc] === 'BULLETED' ? sentences.map((s) => `- ${s.text}`).join('\n') : sentences.map((s) => s.text).join(' ');
    return {
      title: SECTION_TITLES[loinc] ?? loinc,
      content,
      loinc_code: loinc,
      source_transcripts: [...new Set(sentences.flatMap((s) => s.source_transcripts))],
      sentences,
    };
  });
}

export interface MappingInput {
  llm: LlmNote;
  req: NoteRequest;
  loincs: string[];
  codes: CodeIndex;
  /** Form values come from the embedded filler, which checks each field's type. */
  forms: SectionStructuredValues[];
  /** Allergies and lab/imaging orders come from the embedded engine's rules over the same transcript (issue 29). */
  allergies?: Allergy[];
  serviceOrders?: ServiceOrder[];
}

export function mapNoteAnswer({ llm, req, loincs, codes, forms, allergies = [], serviceOrders = [] }: MappingInput): NoteResult {
  const known = new Set(req.transcript.map((l) => l.transcriptId));
  const cited = (ids: string[]) => [...new Set(ids.filter((id) => known.has(id)))];
  const leftOut: LeftOutItem[] = [];
  const model = req.hccModel ?? 'V28';
  const diagnoses: Diagnosis[] = [];
  for (const d of llm.diagnoses) {
    const icd = checkIcd10(codes, d.description, d.icd10_code);
    if (!icd.value) {
      leftOut.push({ reason: 'UNSUPPORTED', kind: 'diagnosis', text: d.description, source_transcripts: cited(d.evidence) });
      continue;
    }
    if (diagnoses.some((x) => x.codes[0].code === icd.value.code)) continue;
    const dxCodes: Diagnosis['codes'] = [{ code: icd.value.code, description: icd.value.description, type: 'ICD10' }];
    const hcc = codes.hcc(icd.value.code, model);
    if (hcc) dxCodes.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
    diagnoses.push({ codes: dxCodes, diagnosis_note: d.diagnosis_note, ...(d.laterality ? { laterality_indicator: d.laterality } : {}), source_transcripts: cited(d.evidence) });
  }
  const values: MedicationOrder[] = [];
  const partial: MedicationOrder[] = [];
  const emr = req.emrContext?.medications;
  for (const o of llm.medication_orders) {
    const rx = checkRxNorm(codes, o.drug_name, o.rxnorm_code);
    if (!rx.value) {
      leftOut.push({ reason: 'UNSUPPORTED', kind: 'medication_order', text: o.drug_name, source_transcripts: cited(o.evidence) });
      continue;
    }
    const { ingredient, concept } = rx.value;
    const unitUpper = o.dose_unit?.toUpperCase();
    const status = oneOf(MEDICATION_ORDER_STATUS_CODES, o.status) ?? STATUS.NEW;
    const order: MedicationOrder = {
      drug_name: ingredient,
      medication_code: { code: concept.rxcui, type: 'RXCUI' },
      status,
      dosage: {
        quantity: o.dose_quantity,
        unit: oneOf(DOSAGE_UNIT_CODES, unitUpper) ?? UNIT_CODES[(o.dose_unit ?? '').toLowerCase()] ?? null,
        raw_value: o.dose_quantity !== null ? `${o.dose_quantity} ${o.dose_unit ?? ''}`.trim() : null,
      },
      frequency: { raw_value: o.frequency, structured_value: oneOf(FREQUENCY_TYPE_CODES, o.frequency) ?? parseFrequency(o.frequency ?? '').code },
      medication_timing: oneOf(MEDICATION_TIMING_CODES, o.timing) ?? parseTiming(o.timing ?? ''),
      route: o.route ? o.route.toUpperCase() : null,
      duration_in_days: o.duration_in_days,
      number_of_refills: o.number_of_refills,
      instructions: o.instructions,
      metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
      linked_diagnosis_codes: [],
      source_transcripts: cited(o.evidence),
    };
    // An order about a drug the EMR does not list (continue, stop, change) is kept aside as partial.
    const unconfirmed = emr && ['DISCONTINUED', 'REFILLED', 'CONTINUED', 'CHANGED'].includes(status) && !emr.some((m) => m.name.toLowerCase().includes(ingredient) || m.rxcui === concept.rxcui);
    (isCompleteOrder(order) && !unconfirmed ? values : partial).push(continuedAsActive(order));
  }
  return {
    summary: sectionsOf(llm, req, loincs, known),
    structured_data: { diagnoses: { values: diagnoses }, orders: { medication_orders: { values, partial_values: partial }, service_orders: { values: serviceOrders } }, allergies: { values: allergies }, section_structured_values: forms },
    ...(leftOut.length ? { left_out: leftOut } : {}),
  };
}
