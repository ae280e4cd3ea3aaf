import type { z } from 'zod';
import {
  FHIR_SYSTEMS,
  FhirAllergyIntolerance,
  FhirCondition,
  FhirMedication,
  FhirMedicationRequest,
  FhirMedicationStatement,
  type CkgError,
  type FhirBundle,
  type FhirCodeableConcept,
  type PatientAllergy,
  type PatientMedication,
  type PatientProblem,
} from '@/lib/contracts/ckg';

export interface ExtractedContext {
  medications: PatientMedication[];
  problems: PatientProblem[];
  allergies: PatientAllergy[];
}

export class CkgContentError extends Error {
  constructor(readonly error: CkgError) {
    super(error.message);
  }
}

const ACTIVE_MEDICATION_STATUSES = new Set(['active', 'on-hold', 'intended', 'unknown']);
const ACTIVE_CLINICAL_STATUSES = new Set(['active', 'recurrence', 'relapse']);

function codeFrom(cc: FhirCodeableConcept | undefined, ...systems: string[]): string | null {
  const found = cc?.coding?.find((c) => c.system && systems.includes(c.system.replace(/\/+$/, '')) && c.code?.trim());
  return found?.code?.trim() ?? null;
}

function nameOf(cc: FhirCodeableConcept | undefined): string | null {
  const text = cc?.text?.trim();
  if (text) return text;
  return cc?.coding?.find((c) => c.display?.trim())?.display?.trim() ?? null;
}

/** First code of a status CodeableConcept (clinicalStatus, verificationStatus), lower-cased. */
function statusCode(cc: FhirCodeableConcept | undefined): string | null {
  const code = cc?.coding?.find((c) => c.code?.trim())?.code ?? cc?.text;
  return code ? code.trim().toLowerCase() : null;
}

function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return `${path || 'resource'}: ${issue.message}`;
}

/**
 * Reads a Bundle's medications, problems and allergies. Resources of other types are ignored; entries
 * recorded in error are skipped; a supported resource that cannot be read throws CkgContentError naming
 * the entry (the whole bundle is refused, since a partial snapshot would silently drop data).
 * Duplicates (same code, else same name) collapse to one, keeping an active record over an inactive one.
 */
export function extractPatientContext(bundle: FhirBundle): ExtractedContext {
  const entries = bundle.entry ?? [];
  const medicationsById = new Map<string, FhirCodeableConcept | undefined>();
  for (const e of entries) {
    const parsed = FhirMedication.safeParse(e.resource);
    if (!parsed.success) continue;
    const med = parsed.data;
    if (med.id) medicationsById.set(`Medication/${med.id}`, med.code);
    if (e.fullUrl) medicationsById.set(e.fullUrl, med.code);
  }

  const medications: PatientMedication[] = [];
  const problems: PatientProblem[] = [];
  const allergies: PatientAllergy[] = [];

  entries.forEach((entry, index) => {
    const type = entry.resource.resourceType;
    const where = `entry[${index}] (${type}${typeof entry.resource.id === 'string' ? `/${entry.resource.id}` : ''})`;
    const fail = (message: string): never => {
      throw new CkgContentError({ code: 'INVALID_RESOURCE', message: `${where}: ${message}` });
    };
    const parse = <S extends z.ZodType>(schema: S): z.infer<S> => {
      const r = schema.safeParse(entry.resource);
      if (!r.success) fail(issueMessage(r.error));
      return r.data as z.infer<S>;
    };

    if (type === 'MedicationRequest' || type === 'MedicationStatement') {
      const res = type === 'MedicationRequest' ? parse(FhirMedicationRequest) : parse(FhirMedicationStatement);
      if (res.status === 'entered-in-error') return;
      let concept = res.medicationCodeableConcept;
      if (!concept && res.medicationReference) {
        const ref = res.medicationReference.reference;
        concept = ref ? medicationsById.get(ref) : undefined;
        if (!concept && res.medicationReference.display) concept = { text: res.medicationReference.display };
        if (!concept) fail(`medicationReference ${ref ?? ''} does not resolve to a Medication in the bundle`);
      }
      if (!concept) fail('medicationCodeableConcept or medicationReference is required');
      const name = nameOf(concept);
      const rxcui = codeFrom(concept, FHIR_SYSTEMS.rxnorm);
      if (!name && !rxcui) fail('the medication has neither a name (text or coding display) nor an RxNorm code');
      const dosage =
        type === 'MedicationRequest' ? (res as z.infer<typeof FhirMedicationRequest>).dosageInstruction : (res as z.infer<typeof FhirMedicationStatement>).dosage;
      medications.push({
        name: name ?? `RXCUI ${rxcui}`,
        rxcui,
        ndc: codeFrom(concept, FHIR_SYSTEMS.ndc),
        status: res.status,
        active: ACTIVE_MEDICATION_STATUSES.has(res.status),
        dosage_text: dosage?.find((d) => d.text?.trim())?.text?.trim() ?? null,
        source: type,
        source_id: res.id ?? null,
      });
    } else if (type === 'Condition') {
      const res = parse(FhirCondition);
      if (statusCode(res.verificationStatus) === 'entered-in-error') return;
      const name = nameOf(res.code);
      const icd10 = codeFrom(res.code, FHIR_SYSTEMS.icd10cm, FHIR_SYSTEMS.icd10);
      const snomed = codeFrom(res.code, FHIR_SYSTEMS.snomed);
      if (!name && !icd10 && !snomed) fail('code has no text, display, ICD-10-CM or SNOMED CT coding');
      const clinical = statusCode(res.clinicalStatus);
      problems.push({
        name: name ?? icd10 ?? snomed!,
        icd10,
        snomed,
        clinical_status: clinical,
        // A Condition without clinicalStatus is, per FHIR, usually a problem-list entry still in force.
        active: clinical === null || ACTIVE_CLINICAL_STATUSES.has(clinical),
        onset: res.onsetDateTime ?? null,
        source_id: res.id ?? null,
      });
    } else if (type === 'AllergyIntolerance') {
      const res = parse(FhirAllergyIntolerance);
      const verification = statusCode(res.verificationStatus);
      if (verification === 'entered-in-error' || verification === 'refuted') return;
      const name = nameOf(res.code);
      const rxcui = codeFrom(res.code, FHIR_SYSTEMS.rxnorm);
      const snomed = codeFrom(res.code, FHIR_SYSTEMS.snomed);
      if (!name && !rxcui && !snomed) fail('code has no text, display, RxNorm or SNOMED CT coding');
      const clinical = statusCode(res.clinicalStatus);
      allergies.push({
        substance: name ?? rxcui ?? snomed!,
        rxcui,
        snomed,
        clinical_status: clinical,
        active: clinical === null || clinical === 'active',
        criticality: res.criticality ?? null,
        reactions: (res.reaction ?? []).flatMap((r) => (r.manifestation ?? []).map(nameOf).filter((n): n is string => !!n)),
        source_id: res.id ?? null,
      });
    }
  });

  return {
    medications: dedupe(medications, (m) => (m.rxcui ? `rx:${m.rxcui}` : `name:${m.name.toLowerCase()}`)),
    problems: dedupe(problems, (p) => (p.icd10 ? `icd:${p.icd10.toUpperCase()}` : p.snomed ? `sct:${p.snomed}` : `name:${p.name.toLowerCase()}`)),
    allergies: dedupe(allergies, (a) => (a.rxcui ? `rx:${a.rxcui}` : a.snomed ? `sct:${a.snomed}` : `name:${a.substance.toLowerCase()}`)),
  };
}

function dedupe<T extends { active: boolean }>(items: T[], key: (t: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    const seen = byKey.get(k);
    if (!seen || (!seen.active && item.active)) byKey.set(k, item);
  }
  return [...byKey.values()];
}
