import { describe, expect, it } from 'vitest';
import type { Bundle, Composition, Condition, MedicationRequest, Resource } from '@medplum/fhirtypes';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import { assertValidBundle } from './assert-valid-bundle';
import { buildDocumentBundle } from './build-document-bundle';
import { findUnresolvedReferences } from './find-unresolved-references';
import { mapCompositionStatus } from './map-composition-status';
import { renderNarrative } from './render-narrative';
import { validateFhirResource } from './validate-fhir-resource';
import type { FhirExportSource } from './types';

const SESSION = '11111111-1111-4111-8111-111111111111';
const NOTE = '22222222-2222-4222-8222-222222222222';
const ENCOUNTER = '33333333-3333-4333-8333-333333333333';
const PROVIDER = '44444444-4444-4444-8444-444444444444';
const RECORDING = '55555555-5555-4555-8555-555555555555';

function order(over: Partial<MedicationOrder> = {}): MedicationOrder {
  return {
    drug_name: 'metformin',
    medication_code: { code: '6809', type: 'RXCUI' },
    status: 'NEW',
    dosage: { quantity: 500, unit: 'MG', raw_value: '500 mg' },
    frequency: { raw_value: 'twice a day', structured_value: 'TWO_A_DAY' },
    medication_timing: 'WITH_MEALS',
    route: 'oral',
    duration_in_days: 30,
    number_of_refills: 2,
    instructions: 'Take with food.',
    metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' },
    linked_diagnosis_codes: ['E11.9'],
    ...over,
  };
}

function source(over: Partial<FhirExportSource> = {}): FhirExportSource {
  return {
    base: 'https://ambient.example.org',
    partnerId: 'acme',
    scope: { kind: 'session', id: SESSION },
    compositionId: NOTE,
    encounterId: ENCOUNTER,
    emrEncounterId: 'ENC-77',
    status: 'completed',
    context: {
      patient: { dob: '1960-04-02', sex: 'female', emr_patient_id: 'PT-1', mrn: 'MRN-123', name: { given: ['Ada'], family: 'Lovelace' } },
      visit: { chief_complaint: 'Diabetes follow-up <& review>', visit_type: 'FOLLOW_UP', encounter_type: 'AMBULATORY' },
    },
    provider: { id: PROVIDER, name: 'Dr. Grace Hopper', email: 'grace@clinic.example', partnerProviderId: 'NPI-123456' },
    content: {
      summary: [
        { title: 'History of present illness', content: 'Sugars <200 & "stable".\nNo hypoglycemia.', loinc_code: '10164-2', source_transcripts: [] },
        { title: 'Assessment and plan', content: 'Type 2 diabetes, controlled.', loinc_code: '51847-2', source_transcripts: [] },
        { title: 'Allergies', content: '', loinc_code: '48765-2', source_transcripts: [] },
      ],
      structured_data: {
        diagnoses: {
          values: [
            {
              codes: [
                { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' },
                { code: 'HCC38', description: 'Diabetes with Glycemic, Unspecified, or No Complications', type: 'HCC' },
              ],
              diagnosis_note: 'Controlled on metformin.',
            },
          ],
        },
        orders: {
          medication_orders: {
            values: [
              order(),
              order({ drug_name: 'lisinopril', medication_code: { code: '29046', type: 'RXCUI' }, status: 'DISCONTINUED', linked_diagnosis_codes: ['I10'], metadata: { origin: 'EMR', encounter_relation: 'PRIOR_ENCOUNTER' } }),
              order({ drug_name: 'albuterol', medication_code: null, dosage: { quantity: 2, unit: 'PUFF', raw_value: null }, frequency: { raw_value: 'as needed', structured_value: 'AS_NEEDED' }, medication_timing: 'AT_ONSET_OF_SYMPTOMS', route: 'inhaled', duration_in_days: null, number_of_refills: null, instructions: null, linked_diagnosis_codes: [] }),
            ],
            partial_values: [order({ drug_name: 'atorvastatin', medication_code: null, dosage: { quantity: null, unit: null, raw_value: null }, frequency: { raw_value: null, structured_value: null }, medication_timing: null, route: null, duration_in_days: null, number_of_refills: null, instructions: null, linked_diagnosis_codes: [] })],
          },
          service_orders: { values: [] },
        },
        allergies: { values: [] },
        section_structured_values: [
          { loinc: '10190-7', template_id: 'phq-2', values: [{ id: 'date_administered', value: '2026-11-20' }, { id: 'interest', value: 'Several days' }] },
        ],
      },
    },
    engines: ['embedded'],
    serviceVersion: '0.1.0',
    hccModel: 'V28',
    noteStatus: 'draft',
    signedAt: null,
    updatedAt: new Date('2026-11-20T10:30:00.000Z'),
    period: { start: new Date('2026-11-20T10:00:00.000Z'), end: new Date('2026-11-20T10:20:00.000Z') },
    recordings: [{ id: RECORDING, sessionId: SESSION, sequenceNumber: 1, startTime: new Date('2026-11-20T10:00:01.000Z'), durableBytes: 64_000, content: { kind: 'audio', probeOf: null } }],
    ...over,
  };
}

const byType = <T extends Resource>(b: Bundle, type: T['resourceType']) => (b.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
const errorsOf = (r: Resource) => validateFhirResource(r).filter((i) => i.severity === 'error' || i.severity === 'fatal');

describe('FHIR document Bundle', () => {
  const bundle = buildDocumentBundle(source());

  it('validates against FHIR R4, as a whole and entry by entry, with every reference resolved', () => {
    expect(errorsOf(bundle)).toEqual([]);
    for (const e of bundle.entry ?? []) expect(errorsOf(e.resource!), e.fullUrl).toEqual([]);
    expect(validateFhirResource(bundle).map((i) => i.details?.text)).toEqual([]);
    expect(findUnresolvedReferences(bundle)).toEqual([]);
  }, 60_000);

  it('is a document with the Composition first and one of each resource the note needs', () => {
    expect(bundle.type).toBe('document');
    expect(bundle.entry![0]!.resource!.resourceType).toBe('Composition');
    expect(bundle.entry!.map((e) => e.resource!.resourceType)).toEqual([
      'Composition', 'Patient', 'Encounter', 'Practitioner', 'Device', 'Condition', 'MedicationRequest', 'MedicationRequest', 'MedicationRequest', 'MedicationRequest',
      'QuestionnaireResponse', 'DocumentReference', 'Media', 'Provenance',
    ]);
    for (const e of bundle.entry!) expect(e.fullUrl).toBe(`https://ambient.example.org/fhir/${e.resource!.resourceType}/${e.resource!.id}`);
    expect(buildDocumentBundle(source())).toEqual(bundle);
  });

  it('writes the note: LOINC type and sections, escaped narrative, entries filed under their sections', () => {
    const c = byType<Composition>(bundle, 'Composition')[0]!;
    expect(c.id).toBe(NOTE);
    expect(c.status).toBe('preliminary');
    expect(c.type.coding![0]).toMatchObject({ system: 'http://loinc.org', code: '11506-3' });
    expect(c.section!.map((s) => s.code!.coding![0]!.code)).toEqual(['10164-2', '51847-2', '48765-2', '10190-7']);
    expect(c.section![0]!.text!.div).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>Sugars &lt;200 &amp; &quot;stable&quot;.</p><p>No hypoglycemia.</p></div>');
    expect(c.section![2]!.text!.status).toBe('empty');
    // No medications section in this note: orders go under the assessment and plan with the diagnoses.
    expect(c.section![1]!.entry!.map((r) => r.reference!.split('/')[0])).toEqual(['Condition', ...Array(4).fill('MedicationRequest')]);
    // The form's own section (mental status) is added, since the note has none.
    expect(c.section![3]!.title).toBe('Mental status');
    expect(c.section![3]!.entry![0]!.reference).toMatch(/^QuestionnaireResponse\//);
    expect(c.section![3]!.text!.div).toContain('Date administered: 2026-11-20');
  });

  it('codes diagnoses in ICD-10-CM with the CMS-HCC category and model version', () => {
    const [cond] = byType<Condition>(bundle, 'Condition');
    expect(cond!.code!.coding).toEqual([
      { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
      { system: 'http://terminology.hl7.org/CodeSystem/cmshcc', version: '28', code: '38', display: 'Diabetes with Glycemic, Unspecified, or No Complications' },
    ]);
    expect(cond!.verificationStatus!.coding![0]!.code).toBe('confirmed');
    expect(cond!.category![0]!.coding![0]!.code).toBe('encounter-diagnosis');
  });

  it('maps orders: RxNorm, status, intent, encounter relation and the dosage from the info-list codes', () => {
    const [metformin, lisinopril, albuterol, draft] = byType<MedicationRequest>(bundle, 'MedicationRequest');
    expect(metformin!.medicationCodeableConcept!.coding).toEqual([{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '6809', display: 'metformin' }]);
    expect([metformin!.status, metformin!.intent, metformin!.encounter?.reference]).toEqual(['active', 'order', expect.stringMatching(/^Encounter\//)]);
    expect(metformin!.dosageInstruction![0]).toMatchObject({
      text: '500 mg oral twice a day with meals for 30 days',
      patientInstruction: 'Take with food.',
      doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd', when: ['C'], boundsDuration: { value: 30, code: 'd' } } },
      route: { coding: [{ code: '26643006' }] },
    });
    expect(metformin!.dispenseRequest).toMatchObject({ numberOfRepeatsAllowed: 2, expectedSupplyDuration: { value: 30 } });
    expect(metformin!.reasonReference).toEqual([{ reference: `Condition/${byType<Condition>(bundle, 'Condition')[0]!.id}` }]);
    expect([lisinopril!.status, lisinopril!.reportedBoolean, lisinopril!.encounter]).toEqual(['stopped', true, undefined]);
    expect(lisinopril!.reasonCode![0]!.coding![0]!.code).toBe('I10');
    expect(albuterol!.dosageInstruction![0]).toMatchObject({
      asNeededBoolean: true,
      doseAndRate: [{ doseQuantity: { value: 2, unit: 'puff', code: '{puff}' } }],
      additionalInstruction: [{ text: 'at onset of symptoms' }],
    });
    expect([draft!.status, draft!.intent]).toEqual(['draft', 'proposal']);
  });

  it('identifies the patient, encounter and clinician by the partner ids given', () => {
    const patient = bundle.entry![1]!.resource as import('@medplum/fhirtypes').Patient;
    expect(patient.identifier!.map((i) => i.value)).toEqual(['PT-1', 'MRN-123']);
    expect(patient.name).toEqual([{ family: 'Lovelace', given: ['Ada'] }]);
    expect([patient.gender, patient.birthDate]).toEqual(['female', '1960-04-02']);
    const bare = buildDocumentBundle(source({ context: {} })).entry![1]!.resource as import('@medplum/fhirtypes').Patient;
    expect(Object.keys(bare).sort()).toEqual(['id', 'resourceType']);
  });

  it('reports sign-off as the Composition status', () => {
    expect([mapCompositionStatus('draft'), mapCompositionStatus('signed'), mapCompositionStatus('amended'), mapCompositionStatus(undefined)]).toEqual(['preliminary', 'final', 'amended', 'preliminary']);
    const signed = buildDocumentBundle(source({ noteStatus: 'signed', signedAt: new Date('2026-11-20T11:00:00Z') }));
    const c = signed.entry![0]!.resource as Composition;
    expect(c.status).toBe('final');
    expect(c.attester![0]!.mode).toBe('legal');
    expect(errorsOf(signed)).toEqual([]);
  });

  it('escapes narrative and drops characters XML cannot carry', () => {
    expect(renderNarrative('a\u0001<b>').div).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>a&lt;b&gt;</p></div>');
  });

  it('fails validation for a document FHIR would refuse', () => {
    const broken = structuredClone(bundle);
    delete (broken.entry![0]!.resource as Partial<Composition>).title;
    delete broken.identifier;
    const texts = errorsOf(broken).map((i) => `${i.expression?.[0]} ${i.details?.text}`);
    expect(texts).toEqual(expect.arrayContaining([expect.stringMatching(/^Bundle .*bdl-9/), expect.stringMatching(/entry\[0\]\.resource\.title Missing required property/)]));
  });

  it('exports a valid, empty document for a terminal session without a note (skipped, aborted)', () => {
    const empty = buildDocumentBundle(
      source({ status: 'aborted', recordings: [], engines: [], content: { summary: [], structured_data: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] } } }),
    );
    expect(errorsOf(empty)).toEqual([]);
    expect(findUnresolvedReferences(empty)).toEqual([]);
    expect(empty.entry!.map((e) => e.resource!.resourceType)).toEqual(['Composition', 'Patient', 'Encounter', 'Practitioner', 'Device', 'DocumentReference', 'Provenance']);
    expect((empty.entry![2]!.resource as import('@medplum/fhirtypes').Encounter).status).toBe('cancelled');
  });

  it('the development assertion throws on an invalid export without quoting note text', () => {
    expect(() => assertValidBundle(bundle)).not.toThrow();
    const broken = structuredClone(bundle);
    (broken.entry![0]!.resource as Composition).date = 'Sugars 140 secret';
    (broken.entry![5]!.resource as Condition).subject = { reference: 'Patient/missing' };
    let message = '';
    try {
      assertValidBundle(broken);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^FHIR export failed validation: /);
    expect(message).toContain('unresolved reference');
    expect(message).toContain('Bundle.entry[0].resource.date');
    expect(message).not.toContain('Sugars');
  });

  it('detects references that do not resolve', () => {
    const broken = structuredClone(bundle);
    (broken.entry![5]!.resource as Condition).subject = { reference: 'Patient/nope' };
    expect(findUnresolvedReferences(broken)).toEqual([`${broken.entry![5]!.fullUrl}: Patient/nope`]);
  });
});
