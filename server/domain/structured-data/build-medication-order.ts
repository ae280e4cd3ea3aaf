import { badRequest } from '@/lib/errors';
import { DOSAGE_UNIT_LABELS, FREQUENCY_TYPE_INFO, type DosageUnitCode, type FrequencyTypeCode } from '@/lib/info/lists';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import type { MedicationOrderEdit } from '@/lib/contracts/structured-data-edits';
import type { CodeIndex } from '../../codesets/index';
import { continuedAsActive } from '../../engines/notes/continued-orders';

/**
 * A medication order as the clinician set it. The RXCUI must be in the code sets (400 naming `rxcui`). The
 * order is marked origin USER; what the clinician's form has no field for (timing, refills, duration, linked
 * diagnoses, the previous dose) is kept from the order it replaces, and so are its transcript lines while the
 * drug is the same one.
 */
export function buildMedicationOrder(codes: CodeIndex, edit: MedicationOrderEdit, before?: MedicationOrder): MedicationOrder {
  // Continuing a medication is an ACTIVE order of this encounter (issue 29 item 3).
  return continuedAsActive(orderAsSet(codes, edit, before));
}

function orderAsSet(codes: CodeIndex, edit: MedicationOrderEdit, before?: MedicationOrder): MedicationOrder {
  const concept = edit.rxcui ? codes.rxByCui(edit.rxcui) : undefined;
  if (edit.rxcui && !concept) throw badRequest(`rxcui: ${edit.rxcui} is not an RxNorm concept in the code sets (search GET /api/v1/codes/rxnorm)`);
  if (edit.as_needed_reason && edit.as_needed === false) throw badRequest('as_needed_reason: is only given when as_needed is true');
  const quantity = edit.dose_quantity ?? null;
  const unit = edit.dose_unit ?? null;
  const frequency = edit.frequency ?? null;
  const sameDrug = !!before && (before.medication_code?.code ?? before.drug_name.toLowerCase()) === (concept?.rxcui ?? edit.drug_name.toLowerCase());
  const asNeeded = edit.as_needed ?? (frequency === 'AS_NEEDED' || !!edit.as_needed_reason);
  return {
    drug_name: edit.drug_name,
    medication_code: concept ? { code: concept.rxcui, type: 'RXCUI' } : null,
    status: edit.status,
    dosage: { quantity, unit, raw_value: quantity === null ? null : doseText(quantity, unit) },
    frequency: { raw_value: frequency ? FREQUENCY_TYPE_INFO[frequency as FrequencyTypeCode].label.toLowerCase() : null, structured_value: frequency },
    medication_timing: before?.medication_timing ?? null,
    route: edit.route || null,
    duration_in_days: before?.duration_in_days ?? null,
    number_of_refills: before?.number_of_refills ?? null,
    // The clinician's form has no instructions field: left out, the order's own instructions stay.
    instructions: edit.instructions === undefined ? (before?.instructions ?? null) : edit.instructions || null,
    metadata: { origin: 'USER', encounter_relation: before?.metadata.encounter_relation ?? 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: before?.linked_diagnosis_codes ?? [],
    as_needed: asNeeded,
    as_needed_reason: asNeeded ? (edit.as_needed_reason ?? null) : null,
    ...(edit.status === 'CHANGED' && before?.previous_dosage ? { previous_dosage: before.previous_dosage } : {}),
    ...(sameDrug && before?.source_transcripts ? { source_transcripts: before.source_transcripts } : {}),
  };
}

function doseText(quantity: number, unit: string | null): string {
  if (!unit) return String(quantity);
  const label = DOSAGE_UNIT_LABELS[unit as DosageUnitCode] ?? unit.toLowerCase();
  // Count units read as words ("2 tablets"); abbreviations as written ("500 mg", "5 mL").
  const word = label.length > 3 && /^[a-z ]+$/.test(label);
  const plural = quantity !== 1 && word ? (/(ch|sh|s|x)$/.test(label) ? `${label}es` : `${label}s`) : label;
  return `${quantity} ${plural}`;
}
