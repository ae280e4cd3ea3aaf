import type {
  AllergyIntolerance,
  Composition,
  CompositionSection,
  Condition,
  Device,
  Encounter,
  MedicationRequest,
  Patient,
  Practitioner,
  QuestionnaireResponse,
  Reference,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { LOINC_OFFICIAL_NAMES, loincs, type LoincSectionCode } from '@/lib/info';
import { deriveResourceId } from './derive-resource-id';
import { mapCompositionStatus } from './map-composition-status';
import { mapDocumentType } from './map-document-type';
import { renderNarrative } from './render-narrative';
import { SYSTEM, ref } from './systems';
import type { FhirExportSource } from './types';

/** Where coded entries are filed: the first of these sections the note has; else a section is added. */
const CONDITION_SECTIONS = ['51847-2', '51848-0', '11450-4', '57852-6', '18776-5'];
const MEDICATION_SECTIONS = ['10160-0', '18776-5', '51847-2'];
const ALLERGY_SECTIONS = ['48765-2'];
const SERVICE_ORDER_SECTIONS = ['18776-5', '51847-2'];

type Entry = Condition | MedicationRequest | AllergyIntolerance | ServiceRequest | QuestionnaireResponse;

export interface CompositionInput {
  src: FhirExportSource;
  patient: Patient;
  encounter: Encounter;
  practitioner: Practitioner;
  device: Device;
  conditions: Condition[];
  medicationRequests: MedicationRequest[];
  /** Additive (issue 29); absent from callers written before it. */
  allergies?: AllergyIntolerance[];
  serviceRequests?: ServiceRequest[];
  /** Filled forms with the note section (LOINC) they belong to. */
  forms: Array<{ loinc: string; resource: QuestionnaireResponse }>;
}

function commonName(loinc: string): string {
  return loincs.find((l) => l.code === loinc)?.common_name ?? loinc;
}

/** A line per entry, for the narrative of a section the service added to hold them. */
function entryLines(resources: Entry[]): string {
  return resources
    .map((r) => {
      if (r.resourceType === 'Condition') return r.code?.text ?? r.code?.coding?.[0]?.code ?? 'Diagnosis';
      if (r.resourceType === 'MedicationRequest') return [r.medicationCodeableConcept?.text, r.dosageInstruction?.[0]?.text].filter(Boolean).join(': ');
      if (r.resourceType === 'AllergyIntolerance') return [r.code?.text, r.reaction?.[0]?.manifestation[0]?.text].filter(Boolean).join(': ');
      if (r.resourceType === 'ServiceRequest') return [r.code?.text, r.occurrenceTiming?.code?.text].filter(Boolean).join(', ');
      return (r.item ?? []).map((i) => `${i.text ?? i.linkId}: ${(i.answer ?? []).map((a) => a.valueDate ?? a.valueString).join(', ')}`).join('\n');
    })
    .join('\n');
}

/**
 * The note as the document's Composition: LOINC document type, one section per note section in note
 * order (LOINC code, title, the text as XHTML narrative), and the coded entries filed under the
 * section they belong to: diagnoses under the assessment, orders under medications or the plan, allergies
 * under Allergies, lab and imaging orders under the plan, filled
 * forms under their own section. Entries whose section the note lacks get a section of their own, so
 * every resource is reachable from the Composition.
 */
export function buildComposition(input: CompositionInput): Composition {
  const { src } = input;
  const entries = new Map<string, Entry[]>();
  const present = new Set(src.content.summary.map((s) => s.loinc_code));
  const file = (candidates: string[], fallback: string, r: Entry) => {
    const loinc = candidates.find((c) => present.has(c)) ?? fallback;
    entries.set(loinc, [...(entries.get(loinc) ?? []), r]);
  };
  for (const c of input.conditions) file(CONDITION_SECTIONS, '11450-4', c);
  for (const m of input.medicationRequests) file(MEDICATION_SECTIONS, '10160-0', m);
  for (const a of input.allergies ?? []) file(ALLERGY_SECTIONS, '48765-2', a);
  for (const s of input.serviceRequests ?? []) file(SERVICE_ORDER_SECTIONS, '18776-5', s);
  for (const f of input.forms) file([f.loinc], f.loinc, f.resource);

  const section = (loinc: string, title: string, text: string): CompositionSection => {
    const own = entries.get(loinc) ?? [];
    const display = LOINC_OFFICIAL_NAMES[loinc as LoincSectionCode];
    return {
      title,
      code: { coding: [{ system: SYSTEM.loinc, code: loinc, ...(display ? { display } : {}) }], text: title },
      text: renderNarrative(text),
      ...(own.length ? { entry: own.map((r) => ref(r) as Reference) } : {}),
    };
  };
  const sections = src.content.summary.map((s) => section(s.loinc_code, s.title.trim() || commonName(s.loinc_code), s.content));
  for (const [loinc, rs] of entries) if (!present.has(loinc)) sections.push(section(loinc, commonName(loinc), entryLines(rs)));

  const [typeCode, typeDisplay] = mapDocumentType(src.context.visit?.visit_type);
  const status = mapCompositionStatus(src.noteStatus);
  const cc = src.context.visit?.chief_complaint?.trim();
  return {
    resourceType: 'Composition',
    id: src.compositionId,
    identifier: { system: SYSTEM.uri, value: `urn:uuid:${src.compositionId}` },
    status,
    type: { coding: [{ system: SYSTEM.loinc, code: typeCode, display: typeDisplay }], text: typeDisplay },
    subject: ref(input.patient),
    encounter: ref(input.encounter),
    date: src.updatedAt.toISOString(),
    author: [ref(input.practitioner), ref(input.device)],
    title: cc ? `${typeDisplay}: ${cc}` : typeDisplay,
    ...(status !== 'preliminary' && src.signedAt
      ? { attester: [{ mode: 'legal' as const, time: src.signedAt.toISOString(), party: ref(input.practitioner) }] }
      : {}),
    ...(sections.length ? { section: sections } : {}),
  };
}
