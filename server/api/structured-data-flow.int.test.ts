/**
 * Edits flow everywhere (issue 29 item 6): after the clinician adds a diagnosis, an allergy and a lab order,
 * the FHIR export (valid R4 by medplum's validator), the after-visit summary, the encounter-level structured
 * data and what NOTE_SIGNED links to all answer the edited data; then amend, edit and sign again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllergyIntolerance, Bundle, Condition, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import { errorsOf, ofType } from '../test/fhir-export-fixture';
import { sdItem, sdRoutes, seedStructuredDataVisit, type StructuredDataFixture } from '../test/structured-data-fixture';
import { readReply, testApi, type ApiReply } from '../test/api-client';
import { getEncounterStructuredData, getSessionEncounterStructuredData, getSessionStructuredData } from '@/lib/contracts/routes/sessions';
import { exportSessionFhir } from '@/lib/contracts/routes/fhir';
import { amendNote, getNoteHistory, getVisitSummary, signNote } from '@/lib/contracts/routes/workflow';
import { getStructuredDataHistory } from '@/lib/contracts/routes/structured-data';
import { findUnresolvedReferences } from '../domain/fhir/find-unresolved-references';

let f: StructuredDataFixture;
let id: string;

beforeAll(async () => {
  f = await seedStructuredDataVisit();
  id = f.visit.ambient_session_id;
  const edits: [string, () => Promise<ApiReply>, number][] = [
    ['diagnoses', async () => api().call(sdRoutes.diagnoses.add, { ...visit(id), body: { code: 'E11.9', diagnosis_note: 'On metformin.' } }), 201],
    ['allergies', async () => api().call(sdRoutes.allergies.add, { ...visit(id), body: { substance: 'penicillin G', substance_code: { code: '7980', type: 'RXCUI' }, reaction: 'rash' } }), 201],
    ['service-orders', async () => api().call(sdRoutes['service-orders'].add, { ...visit(id), body: { name: 'basic metabolic panel', category: 'LAB', loinc: '51990-0', timing: 'before the next visit' } }), 201],
    ['service-orders', async () => api().call(sdRoutes['service-orders'].add, { ...visit(id), body: { name: 'knee x-ray, weight bearing', category: 'IMAGING' } }), 201],
    // The stored note's acetaminophen has no dose or frequency: the clinician completes it, as needed.
    ['medication-orders/1', async () => api().call(sdRoutes['medication-orders'].update, { ...(await sdAt(id, 1)), body: { drug_name: 'acetaminophen', rxcui: '161', dose_quantity: 500, dose_unit: 'MG', frequency: 'EVERY_6_HOURS', status: 'NEW', as_needed: true, as_needed_reason: 'knee pain' } }), 200],
  ];
  for (const [what, edit, status] of edits) {
    const r = await edit();
    expect(r.status, `${what}: ${r.text}`).toBe(status);
  }
}, 300_000);
afterAll(async () => {
  await f?.server.stop();
  await f?.receiver.close();
});

/** The API as the visit's provider. */
const api = () => testApi(f.server, f.dr);
const visit = (sid: string) => ({ params: { ambient_session_id: sid } });

/** A change by position carries the version of the structured data it is made on (issue 29): the current one here. */
async function sdAt(sid: string, position: number) {
  const v = (await api().call(getSessionStructuredData, visit(sid))).body.structured_data_version as string;
  return sdItem(sid, position, v);
}

/** The NOTE_SIGNED notifications received so far, once there are `n` (bounded for a wedged outbox, not a speed check). */
async function noteSignedHooks(n: number): Promise<any[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const got = f.receiver.to('/hooks').map((r) => JSON.parse(r.rawBody)).filter((b) => b.status === 'NOTE_SIGNED');
    if (got.length >= n) return got.sort((a, b) => a.version - b.version);
    if (Date.now() > deadline) throw new Error(`${got.length} NOTE_SIGNED notifications, wanted ${n}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function exportFhir(): Promise<Bundle> {
  const r = await api().call(exportSessionFhir, visit(id));
  expect(r.status, r.text).toBe(200);
  return r.body as Bundle;
}

describe('an edit reaches every reader of the structured data', () => {
  it('the FHIR export carries the added diagnosis, allergy and lab order, valid FHIR R4 with every reference resolved', async () => {
    const bundle = await exportFhir();
    expect(errorsOf(bundle)).toEqual([]);
    for (const e of bundle.entry!) expect(errorsOf(e.resource!), e.fullUrl).toEqual([]);
    expect(findUnresolvedReferences(bundle)).toEqual([]);

    const conditions = ofType<Condition>(bundle, 'Condition').map((c) => c.code!.coding![0]!.code);
    expect(conditions).toEqual(['I10', 'E11.9']);
    const [allergy] = ofType<AllergyIntolerance>(bundle, 'AllergyIntolerance');
    expect(allergy!.code!.coding).toContainEqual(expect.objectContaining({ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '7980' }));
    expect(JSON.stringify(allergy!.reaction)).toContain('rash');
    const requests = ofType<ServiceRequest>(bundle, 'ServiceRequest');
    expect(requests).toHaveLength(2);
    expect(requests[0]!.code!.coding).toContainEqual(expect.objectContaining({ system: 'http://loinc.org', code: '51990-0' }));
    // The unmatched order is kept as text.
    expect(requests[1]!.code!.text).toBe('knee x-ray, weight bearing');
    const acetaminophen = ofType<MedicationRequest>(bundle, 'MedicationRequest').find((m) => m.medicationCodeableConcept?.coding?.[0]?.code === '161')!;
    expect(acetaminophen.status).toBe('active');
    expect(acetaminophen.dosageInstruction![0]).toMatchObject({ asNeededCodeableConcept: { text: 'knee pain' }, doseAndRate: [{ doseQuantity: { value: 500, code: 'mg' } }] });
  });

  it('the after-visit summary names the added diagnosis, the allergy, the lab order and the completed medicine', async () => {
    const r = await api().call(getVisitSummary, visit(id));
    expect(r.status, r.text).toBe(200);
    expect(r.body.about.join(' ')).toMatch(/type 2 diabetes/i);
    expect(r.body.allergies.join(' ')).toMatch(/penicillin G.*rash/i);
    expect(r.body.tests.join(' ')).toMatch(/basic metabolic panel/);
    expect(r.body.medicines.find((m: { drug: string }) => m.drug === 'acetaminophen')?.text).toMatch(/knee pain/);
    expect(r.body.text).toMatch(/penicillin/i);
  });

  it('the encounter-level structured data merges the edited note with the encounter\'s other visit', async () => {
    for (const read of [() => api().call(getSessionEncounterStructuredData, visit(id)), () => api().call(getEncounterStructuredData, { params: { encounter_id: f.visit.encounter_id } })]) {
      const r = await read();
      expect(r.status, r.text).toBe(200);
      const sd = r.body.structured_data;
      expect(sd.diagnoses.values.map((d: { codes: { code: string }[] }) => d.codes[0]!.code).sort()).toEqual(['E11.9', 'I10', 'M25.561']);
      expect(sd.allergies.values.map((a: { substance: string }) => a.substance)).toEqual(['penicillin G']);
      expect(sd.orders.service_orders.values.map((o: { name: string }) => o.name)).toEqual(['basic metabolic panel', 'knee x-ray, weight bearing']);
    }
  });

  it('NOTE_SIGNED links to content that holds the edits', async () => {
    const signed = await api().call(signNote, visit(id));
    expect(signed.status, signed.text).toBe(200);
    const [hook] = await noteSignedHooks(1);
    expect(hook).toMatchObject({ status: 'NOTE_SIGNED', session_id: id, version: 1 });
    // raw fetch: follows the link the notification carries, whatever path it names
    const content = await readReply(await fetch(`${f.server.baseUrl}${new URL(hook._links.contents[0].href).pathname}`, { headers: f.dr.headers }));
    expect(content.body.note_status).toBe('signed');
    expect(content.body.structured_data.allergies.values[0]).toMatchObject({ substance: 'penicillin G', reaction: 'rash' });
    expect(content.body.structured_data.diagnoses.values.map((d: { codes: { code: string }[] }) => d.codes[0]!.code)).toEqual(['I10', 'E11.9']);
  });
});

describe('amend, edit, sign again', () => {
  it('reopens the structured data, keeps the change in its history, and the re-signed note exports it', async () => {
    expect((await api().call(sdRoutes['service-orders'].remove, await sdAt(id, 1))).status).toBe(409);
    const amended = await api().call(amendNote, { ...visit(id), body: { reason: 'The x-ray was not ordered' } });
    expect(amended.status, amended.text).toBe(200);
    const removed = await api().call(sdRoutes['service-orders'].remove, await sdAt(id, 1));
    expect(removed.status, removed.text).toBe(200);
    const metformin = await api().call(sdRoutes['medication-orders'].add, { ...visit(id), body: { drug_name: 'metformin', rxcui: '6809', dose_quantity: 500, dose_unit: 'MG', frequency: 'TWO_A_DAY', status: 'CONTINUED' } });
    expect(metformin.status, metformin.text).toBe(201);
    const resigned = await api().call(signNote, visit(id));
    expect(resigned.body).toMatchObject({ note_status: 'amended', locked: true });

    const bundle = await exportFhir();
    expect(errorsOf(bundle)).toEqual([]);
    expect(ofType<ServiceRequest>(bundle, 'ServiceRequest').map((s) => s.code!.coding?.[0]?.code)).toEqual(['51990-0']);
    expect(JSON.stringify(bundle)).toContain('"6809"');

    const hooks = await noteSignedHooks(2);
    expect(hooks.map((h) => [h.note_status, h.version])).toEqual([
      ['signed', 1],
      ['amended', 2],
    ]);
    const history = (await api().call(getStructuredDataHistory, visit(id))).body.changes as { kind: string; action: string; at: string }[];
    expect(history.slice(0, 2).map((c) => `${c.kind}:${c.action}`)).toEqual(['medication_orders:add', 'service_orders:remove']);
    const note = (await api().call(getNoteHistory, { ...visit(id), query: { order: 'asc' } })).body.events as { type: string; at: string }[];
    const amendAt = Date.parse(note.find((e) => e.type === 'amend')!.at);
    const resignAt = Date.parse(note.filter((e) => e.type === 'sign').at(-1)!.at);
    for (const c of history.slice(0, 2)) expect(Date.parse(c.at) >= amendAt && Date.parse(c.at) <= resignAt).toBe(true);
  });
});
