/**
 * Issue 29 in the FHIR export: allergies as AllergyIntolerance, lab and imaging orders as ServiceRequest (an
 * unmatched order kept as code.text), and an as-needed medication as Dosage.asNeeded[x], all valid against
 * FHIR R4 with Medplum's validator and filed under their note sections.
 */
import { describe, expect, it } from 'vitest';
import type { AllergyIntolerance, Bundle, Composition, MedicationRequest, Resource, ServiceRequest } from '@medplum/fhirtypes';
import { emptyStructuredData, type MedicationOrder, type StructuredData } from '@/lib/contracts/sessions';
import { assertValidBundle } from './assert-valid-bundle';
import { buildDocumentBundle } from './build-document-bundle';
import { findUnresolvedReferences } from './find-unresolved-references';
import { validateFhirResource } from './validate-fhir-resource';
import type { FhirExportSource } from './types';
import { medicationOrder } from '../../test/medication-order';

const order = (over: Partial<MedicationOrder>): MedicationOrder =>
  medicationOrder({
    drug_name: 'acetaminophen',
    medication_code: { code: '161', type: 'RXCUI' },
    status: 'CONTINUED',
    dosage: { quantity: 500, unit: 'MG', raw_value: '500 mg' },
    frequency: { raw_value: 'every 6 hours', structured_value: 'EVERY_6_HOURS' },
    ...over,
  });

function structured(): StructuredData {
  const sd = emptyStructuredData();
  sd.allergies.values = [
    { substance: 'penicillin', substance_code: { code: 'J01C', type: 'DRUG_CLASS', display: 'Penicillins' }, reaction: 'rash', verification: 'REPORTED', source_transcripts: ['t6'] },
    { substance: 'codeine', substance_code: { code: '2670', type: 'RXCUI', display: 'codeine' }, reaction: null, verification: 'CONFIRMED' },
    { substance: 'latex', substance_code: null, reaction: 'hives', verification: 'REPORTED' },
  ];
  sd.orders.service_orders.values = [
    { name: 'basic metabolic panel', category: 'LAB', code: { code: '51990-0', type: 'LOINC', display: 'Basic metabolic panel - Blood' }, timing: null },
    { name: 'hemoglobin a1c', category: 'LAB', code: { code: '4548-4', type: 'LOINC', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }, timing: 'in 3 months' },
    { name: 'x-ray of the right knee', category: 'IMAGING', code: null, timing: null },
  ];
  sd.orders.medication_orders.values = [
    order({ as_needed: true, as_needed_reason: 'pain' }),
    order({ drug_name: 'ibuprofen', medication_code: { code: '5640', type: 'RXCUI' }, frequency: { raw_value: null, structured_value: null }, as_needed: true, as_needed_reason: null }),
    order({ drug_name: 'lisinopril', medication_code: { code: '29046', type: 'RXCUI' }, status: 'CHANGED', dosage: { quantity: 20, unit: 'MG', raw_value: '20 mg' }, frequency: { raw_value: 'daily', structured_value: 'ONE_A_DAY' }, previous_dosage: { quantity: 10, unit: 'MG', raw_value: '10 mg' } }),
  ];
  return sd;
}

function source(sd: StructuredData, sections: FhirExportSource['content']['summary']): FhirExportSource {
  return {
    base: 'https://ambient.example.org',
    partnerId: 'partner-1',
    scope: { kind: 'session', id: '11111111-1111-4111-8111-111111111111' },
    compositionId: '22222222-2222-4222-8222-222222222222',
    encounterId: '33333333-3333-4333-8333-333333333333',
    emrEncounterId: null,
    status: 'completed',
    context: { patient: { emr_patient_id: 'PT-1' } },
    provider: { id: '44444444-4444-4444-8444-444444444444', name: 'Dr. Grace Hopper', email: 'grace@clinic.example', partnerProviderId: null },
    content: { summary: sections, structured_data: sd },
    engines: ['embedded'],
    serviceVersion: '0.1.0',
    hccModel: 'V28',
    noteStatus: 'draft',
    signedAt: null,
    updatedAt: new Date('2026-11-20T10:30:00.000Z'),
    period: { start: new Date('2026-11-20T10:00:00.000Z'), end: new Date('2026-11-20T10:20:00.000Z') },
    recordings: [],
  } as FhirExportSource;
}

const SECTIONS = [
  { title: 'Assessment and plan', content: 'Check a basic metabolic panel.', loinc_code: '51847-2', source_transcripts: [] },
  { title: 'Allergies', content: 'Penicillin causes rash.', loinc_code: '48765-2', source_transcripts: [] },
];
const ofType = <T extends Resource>(b: Bundle, type: T['resourceType']) => (b.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
const errorsOf = (r: Resource) => validateFhirResource(r).filter((i) => i.severity === 'error' || i.severity === 'fatal').map((i) => `${i.expression?.[0]} ${i.details?.text}`);

describe('FHIR export of issue 29 coded data', () => {
  const bundle = buildDocumentBundle(source(structured(), SECTIONS));

  it('validates against FHIR R4 with every new entry resolved and filed in the Composition', () => {
    expect(errorsOf(bundle)).toEqual([]);
    for (const e of bundle.entry ?? []) expect(errorsOf(e.resource!), e.fullUrl).toEqual([]);
    expect(findUnresolvedReferences(bundle)).toEqual([]);
    expect(() => assertValidBundle(bundle)).not.toThrow();
    const c = ofType<Composition>(bundle, 'Composition')[0]!;
    const entries = (loinc: string) => c.section!.find((s) => s.code!.coding![0]!.code === loinc)!.entry!.map((r) => r.reference!.split('/')[0]);
    expect(entries('48765-2')).toEqual(['AllergyIntolerance', 'AllergyIntolerance', 'AllergyIntolerance']);
    expect(entries('51847-2').filter((t) => t === 'ServiceRequest')).toHaveLength(3);
  }, 60_000);

  it('writes each allergy with its substance coding, verification, asserter and reaction', () => {
    const [penicillin, codeine, latex] = ofType<AllergyIntolerance>(bundle, 'AllergyIntolerance');
    expect(penicillin!.code).toEqual({ coding: [{ system: 'http://www.whocc.no/atc', code: 'J01C', display: 'Penicillins' }], text: 'penicillin' });
    expect(penicillin!.verificationStatus!.coding![0]!.code).toBe('unconfirmed');
    expect(penicillin!.asserter!.reference).toMatch(/^Patient\//);
    expect(penicillin!.reaction).toEqual([{ manifestation: [{ text: 'rash' }] }]);
    expect(penicillin!.category).toEqual(['medication']);
    expect(codeine!.code!.coding![0]).toMatchObject({ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '2670' });
    expect([codeine!.verificationStatus!.coding![0]!.code, codeine!.asserter!.reference!.split('/')[0], codeine!.reaction]).toEqual(['confirmed', 'Practitioner', undefined]);
    expect([latex!.code, latex!.category]).toEqual([{ text: 'latex' }, undefined]);
  });

  it('writes lab and imaging orders as ServiceRequests: LOINC when matched, the words said as code.text when not', () => {
    const [bmp, a1c, knee] = ofType<ServiceRequest>(bundle, 'ServiceRequest');
    expect(bmp!.code).toEqual({ coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }], text: 'basic metabolic panel' });
    expect([bmp!.status, bmp!.intent, bmp!.category![0]!.coding![0]!.code]).toEqual(['active', 'order', '108252007']);
    expect(a1c!.occurrenceTiming).toEqual({ code: { text: 'in 3 months' } });
    expect(knee!.code).toEqual({ text: 'x-ray of the right knee' });
    expect(knee!.category![0]!.coding![0]!.code).toBe('363679005');
  });

  it('maps as-needed to Dosage.asNeeded[x] (the reason as a concept\'s text, else the flag) and keeps the previous dose', () => {
    const [acetaminophen, ibuprofen, lisinopril] = ofType<MedicationRequest>(bundle, 'MedicationRequest');
    expect(acetaminophen!.dosageInstruction![0]!.asNeededCodeableConcept).toEqual({ text: 'pain' });
    expect(acetaminophen!.dosageInstruction![0]!.asNeededBoolean).toBeUndefined();
    expect(acetaminophen!.dosageInstruction![0]!.text).toBe('500 mg every 6 hours as needed for pain');
    expect(ibuprofen!.dosageInstruction![0]!.asNeededBoolean).toBe(true);
    expect(lisinopril!.note).toEqual([{ text: 'Previous dose: 10 mg' }]);
    expect(lisinopril!.dosageInstruction![0]!.asNeededBoolean).toBeUndefined();
  });

  it('exports a continued medication (ACTIVE, this encounter) as an active order of the encounter, and one only reported taken as reported', () => {
    const sd = emptyStructuredData();
    sd.orders.medication_orders.values = [
      order({ drug_name: 'metformin', medication_code: { code: '6809', type: 'RXCUI' }, status: 'ACTIVE', metadata: { origin: 'AMBIENT', encounter_relation: 'CURRENT_ENCOUNTER' } }),
      order({ drug_name: 'atorvastatin', medication_code: { code: '83367', type: 'RXCUI' }, status: 'ACTIVE', metadata: { origin: 'AMBIENT', encounter_relation: 'PRIOR_ENCOUNTER' } }),
    ];
    const b = buildDocumentBundle(source(sd, SECTIONS));
    const [continued, reported] = ofType<MedicationRequest>(b, 'MedicationRequest');
    expect([continued!.status, continued!.intent, continued!.reportedBoolean]).toEqual(['active', 'order', undefined]);
    expect(continued!.encounter!.reference).toMatch(/^Encounter\//);
    expect(continued!.extension).toContainEqual({ url: expect.stringMatching(/medication-order-status$/), valueCode: 'ACTIVE' });
    expect([reported!.status, reported!.reportedBoolean, reported!.encounter]).toEqual(['active', true, undefined]);
    expect(errorsOf(b)).toEqual([]);
  }, 60_000);

  it('exports content stored before these lists (no allergies or service orders key) unchanged', () => {
    const old = structured() as Partial<StructuredData>;
    delete old.allergies;
    delete (old.orders as Partial<StructuredData['orders']>).service_orders;
    const b = buildDocumentBundle(source(old as StructuredData, SECTIONS));
    expect(ofType(b, 'AllergyIntolerance')).toEqual([]);
    expect(ofType(b, 'ServiceRequest')).toEqual([]);
    expect(errorsOf(b)).toEqual([]);
  }, 60_000);
});
