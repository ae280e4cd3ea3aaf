import { describe, expect, it } from 'vitest';
import { FhirBundle, CkgIngestRequest } from '@/lib/contracts/ckg';
import { CkgContentError, extractPatientContext } from './extract-patient-context';
import { findPatientMedication } from './find-patient-medication';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const bundle = (...resources: Array<Record<string, unknown>>) => FhirBundle.parse({ resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) });

const metformin = {
  resourceType: 'MedicationRequest',
  id: 'mr1',
  status: 'active',
  medicationCodeableConcept: { coding: [{ system: RX, code: '860975', display: 'metformin hydrochloride 500 MG Extended Release Oral Tablet' }], text: 'Metformin ER 500 mg' },
  dosageInstruction: [{ text: 'one tablet by mouth daily with dinner' }],
};

describe('extractPatientContext', () => {
  it('reads medications from MedicationRequest and MedicationStatement with RXCUI, NDC, status and dosage', () => {
    const ctx = extractPatientContext(
      bundle(metformin, {
        resourceType: 'MedicationStatement',
        id: 'ms1',
        status: 'stopped',
        medicationCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '0093-7214-01', display: 'Lisinopril 10 MG Oral Tablet' }] },
        dosage: [{ text: '10 mg daily' }],
      }),
    );
    expect(ctx.medications).toEqual([
      { name: 'Metformin ER 500 mg', rxcui: '860975', ndc: null, status: 'active', active: true, dosage_text: 'one tablet by mouth daily with dinner', source: 'MedicationRequest', source_id: 'mr1' },
      { name: 'Lisinopril 10 MG Oral Tablet', rxcui: null, ndc: '0093-7214-01', status: 'stopped', active: false, dosage_text: '10 mg daily', source: 'MedicationStatement', source_id: 'ms1' },
    ]);
  });

  it('resolves medicationReference against a Medication in the bundle', () => {
    const b = FhirBundle.parse({
      resourceType: 'Bundle',
      entry: [
        { fullUrl: 'urn:uuid:med-1', resource: { resourceType: 'Medication', id: 'm1', code: { coding: [{ system: RX, code: '197361', display: 'amlodipine 5 MG Oral Tablet' }] } } },
        { resource: { resourceType: 'MedicationRequest', status: 'active', medicationReference: { reference: 'urn:uuid:med-1' } } },
        { resource: { resourceType: 'MedicationRequest', status: 'on-hold', medicationReference: { reference: 'Medication/m1' } } },
      ],
    });
    const meds = extractPatientContext(b).medications;
    expect(meds).toHaveLength(1); // same RXCUI collapses to one
    expect(meds[0]).toMatchObject({ name: 'amlodipine 5 MG Oral Tablet', rxcui: '197361', active: true });
  });

  it('reads problems with ICD-10-CM, SNOMED and clinical status, and allergies with reactions', () => {
    const ctx = extractPatientContext(
      bundle(
        {
          resourceType: 'Condition',
          id: 'c1',
          code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }, { system: 'http://snomed.info/sct', code: '44054006' }] },
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
          onsetDateTime: '2019-04-01',
        },
        { resourceType: 'Condition', id: 'c2', code: { text: 'Seasonal allergic rhinitis' }, clinicalStatus: { coding: [{ code: 'resolved' }] } },
        { resourceType: 'Condition', id: 'c3', code: { text: 'Mistake' }, verificationStatus: { coding: [{ code: 'entered-in-error' }] } },
        {
          resourceType: 'AllergyIntolerance',
          id: 'a1',
          code: { coding: [{ system: RX, code: '7980', display: 'Penicillin G' }] },
          clinicalStatus: { coding: [{ code: 'active' }] },
          criticality: 'high',
          reaction: [{ manifestation: [{ text: 'Hives' }, { coding: [{ display: 'Wheezing' }] }] }],
        },
        { resourceType: 'Patient', id: 'p1', name: [{ family: 'Ignored' }] },
        { resourceType: 'Observation', status: 'final', code: { text: 'ignored' } },
      ),
    );
    expect(ctx.problems).toEqual([
      { name: 'Type 2 diabetes mellitus without complications', icd10: 'E11.9', snomed: '44054006', clinical_status: 'active', active: true, onset: '2019-04-01', source_id: 'c1' },
      { name: 'Seasonal allergic rhinitis', icd10: null, snomed: null, clinical_status: 'resolved', active: false, onset: null, source_id: 'c2' },
    ]);
    expect(ctx.allergies).toEqual([
      { substance: 'Penicillin G', rxcui: '7980', snomed: null, clinical_status: 'active', active: true, criticality: 'high', reactions: ['Hives', 'Wheezing'], source_id: 'a1' },
    ]);
    expect(ctx.medications).toEqual([]);
  });

  it('skips entered-in-error medications and keeps the active one of duplicates', () => {
    const ctx = extractPatientContext(
      bundle(
        { ...metformin, id: 'old', status: 'stopped' },
        { ...metformin, id: 'err', status: 'entered-in-error' },
        { ...metformin, id: 'new', status: 'active' },
      ),
    );
    expect(ctx.medications.map((m) => m.source_id)).toEqual(['new']);
  });

  it('refuses the bundle with an error naming the entry when a supported resource is unreadable', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ resourceType: 'MedicationRequest', id: 'x', status: 'taking', medicationCodeableConcept: { text: 'a' } }, /entry\[1\] \(MedicationRequest\/x\): status: must be a MedicationRequest status/],
      [{ resourceType: 'MedicationRequest', status: 'active' }, /entry\[1\] \(MedicationRequest\): medicationCodeableConcept or medicationReference is required/],
      [{ resourceType: 'MedicationStatement', status: 'active', medicationReference: { reference: 'Medication/nope' } }, /does not resolve to a Medication/],
      [{ resourceType: 'MedicationRequest', status: 'active', medicationCodeableConcept: { coding: [{ system: 'urn:x', code: '1' }] } }, /neither a name/],
      [{ resourceType: 'Condition', id: 'c9' }, /entry\[1\] \(Condition\/c9\): code: /],
      [{ resourceType: 'AllergyIntolerance', code: { text: 'x' }, criticality: 'severe' }, /criticality: must be low, high or unable-to-assess/],
    ];
    for (const [resource, message] of cases) {
      let err: unknown;
      try {
        extractPatientContext(bundle(metformin, resource));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CkgContentError);
      expect((err as CkgContentError).error.code).toBe('INVALID_RESOURCE');
      expect((err as CkgContentError).error.message).toMatch(message);
    }
  });
});

describe('ingest request envelope', () => {
  it('accepts a Bundle with an emr_patient_id and refuses anything else naming the field', () => {
    expect(CkgIngestRequest.safeParse({ emr_patient_id: 'P1', bundle: { resourceType: 'Bundle', entry: [] } }).success).toBe(true);
    const notBundle = CkgIngestRequest.safeParse({ emr_patient_id: 'P1', bundle: { resourceType: 'Patient' } });
    expect(notBundle.success).toBe(false);
    expect(notBundle.error!.issues[0]!.path).toEqual(['bundle', 'resourceType']);
    expect(CkgIngestRequest.safeParse({ emr_patient_id: '', bundle: { resourceType: 'Bundle' } }).error!.issues[0]!.path).toEqual(['emr_patient_id']);
    expect(CkgIngestRequest.safeParse({ emr_patient_id: 'P', bundle: { resourceType: 'Bundle', entry: [{ resource: 'x' }] } }).error!.issues[0]!.path).toEqual([
      'bundle',
      'entry',
      0,
      'resource',
    ]);
  });
});

describe('findPatientMedication', () => {
  const ctx = {
    emr_patient_id: 'P1',
    updated_at: '',
    problems: [],
    allergies: [],
    medications: extractPatientContext(
      bundle(metformin, {
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '0093-7214-01', display: 'Lisinopril' }] },
      }),
    ).medications,
  };

  it('matches by RXCUI, NDC (ignoring punctuation) or name', () => {
    expect(findPatientMedication(ctx, { code: { code: '860975', type: 'RXCUI' } })?.source_id).toBe('mr1');
    expect(findPatientMedication(ctx, { code: { code: '00937214-01', type: 'NDC' } })?.name).toBe('Lisinopril');
    expect(findPatientMedication(ctx, { drug_name: 'lisinopril 10 mg tablet' })?.name).toBe('Lisinopril');
    expect(findPatientMedication(ctx, { drug_name: 'METFORMIN ER 500 MG' })?.source_id).toBe('mr1');
  });

  it('finds nothing for a medication the patient is not on, or without a context', () => {
    expect(findPatientMedication(ctx, { code: { code: '197361', type: 'RXCUI' }, drug_name: 'amlodipine' })).toBeNull();
    expect(findPatientMedication(ctx, { drug_name: 'lis' })).toBeNull();
    expect(findPatientMedication(null, { drug_name: 'metformin' })).toBeNull();
  });
});
