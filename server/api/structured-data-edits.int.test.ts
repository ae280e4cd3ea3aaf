/**
 * The clinician's structured-data edits on a live server (issue 29 item 5): code searches, add / change /
 * remove of each kind with its history, the 400s naming the field, another tenant's 404, READONLY's 403, and
 * the sign-off lock (409) that an amendment lifts.
 */
import { describe, expect, it } from 'vitest';
import { UUID } from '../test/session-api';
import { sdItem, sdRoutes, useStructuredDataVisit } from '../test/structured-data-fixture';
import { testApi, unchecked } from '../test/api-client';
import type { TestProvider } from '../test/partners';
import { getSessionContent, getSessionStructuredData } from '@/lib/contracts/routes/sessions';
import { amendNote, getNoteHistory, signNote } from '@/lib/contracts/routes/workflow';
import { getStructuredDataHistory, searchAllergySubstances, searchIcd10, searchOrderables, searchRxNorm } from '@/lib/contracts/routes/structured-data';

const f = useStructuredDataVisit();

/** The API as the visit's provider, or as another caller. */
const api = (who: TestProvider = f.dr) => testApi(f.server, who);
const visit = (sid: string) => ({ params: { ambient_session_id: sid } });

/** A change by position carries the version of the structured data it is made on (issue 29): the current one here. */
async function sdAt(sid: string, position: number) {
  const v = (await api().call(getSessionStructuredData, visit(sid))).body.structured_data_version as string;
  return sdItem(sid, position, v);
}

describe('code searches', () => {
  it('find ICD-10-CM codes, RxNorm drugs, allergy substances and lab or imaging orderables', async () => {
    const dx = await api().call(searchIcd10, { query: { q: 'type 2 diabetes', limit: 20 } });
    expect(dx.status, dx.text).toBe(200);
    expect(dx.body.results).toContainEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect((await api().call(searchIcd10, { query: { q: 'I10' } })).body.results[0]).toEqual({ code: 'I10', description: 'Essential (primary) hypertension' });

    const rx = await api().call(searchRxNorm, { query: { q: 'metformin' } });
    expect(rx.body.results[0]).toEqual({ rxcui: '6809', name: 'metformin', tty: 'IN' });

    const substance = await api().call(searchAllergySubstances, { query: { q: 'penicillin' } });
    expect(substance.status, substance.text).toBe(200);
    expect(substance.body.results.map((r: { display: string }) => r.display.toLowerCase()).join('|')).toContain('penicillin');

    const lab = await api().call(searchOrderables, { query: { q: 'metabolic' } });
    expect(lab.status, lab.text).toBe(200);
    expect(lab.body.results).toContainEqual(expect.objectContaining({ code: '51990-0', category: 'LAB' }));
  });

  it('name the query field when it is missing or out of range', async () => {
    const missing = await api().call(searchIcd10);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 400, message: expect.stringContaining('q') });
    const tooMany = await api().call(searchRxNorm, { query: { q: 'met', limit: 500 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('limit');
  });
});

describe('editing each kind', () => {
  it('adds a diagnosis coded from the code sets, with its HCC category, and keeps the version', async () => {
    const r = await api().call(sdRoutes.diagnoses.add, { ...visit(f.id), body: { code: 'e119', diagnosis_note: 'On metformin.' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.position).toBe(1);
    expect(r.body.structured_data.diagnoses.values[1]).toMatchObject({
      codes: [
        { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' },
        { code: 'HCC38', type: 'HCC' },
      ],
      diagnosis_note: 'On metformin.',
    });
    const content = await api().call(getSessionContent, visit(f.id));
    expect(content.body.structured_data.diagnoses.values.map((d: { codes: { code: string }[] }) => d.codes[0]!.code)).toEqual(['I10', 'E11.9']);
  });

  it('changes a diagnosis in place and removes one, answering 404 naming the position past the end', async () => {
    const changed = await api().call(sdRoutes.diagnoses.update, { ...(await sdAt(f.id, 1)), body: { code: 'E11.65', diagnosis_note: 'A1c above goal.' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.structured_data.diagnoses.values[1].codes[0].code).toBe('E11.65');
    const added = await api().call(sdRoutes.diagnoses.add, { ...visit(f.id), body: { code: 'M17.11' } });
    expect(added.body.position).toBe(2);
    const removed = await api().call(sdRoutes.diagnoses.remove, await sdAt(f.id, 2));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.position).toBeNull();
    expect(removed.body.structured_data.diagnoses.values).toHaveLength(2);
    const gone = await api().call(sdRoutes.diagnoses.remove, await sdAt(f.id, 2));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 404, message: expect.stringMatching(/^position: .*diagnosis at position 2/) });
  });

  it('completes a partial medication order (moving it to values, origin USER, as needed) and adds a coded one', async () => {
    const sd0 = (await api().call(getSessionStructuredData, visit(f.id))).body.structured_data;
    expect(sd0.orders.medication_orders.partial_values.map((o: { drug_name: string }) => o.drug_name)).toEqual(['acetaminophen']);
    const r = await api().call(sdRoutes['medication-orders'].update, {
      ...(await sdAt(f.id, 1)),
      body: { drug_name: 'acetaminophen', rxcui: '161', dose_quantity: 500, dose_unit: 'MG', frequency: 'EVERY_6_HOURS', status: 'NEW', as_needed: true, as_needed_reason: 'knee pain', route: 'oral' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.position).toBe(1);
    const meds = r.body.structured_data.orders.medication_orders;
    expect(meds.partial_values).toEqual([]);
    expect(meds.values[1]).toMatchObject({
      drug_name: 'acetaminophen', medication_code: { code: '161', type: 'RXCUI' }, status: 'NEW',
      dosage: { quantity: 500, unit: 'MG', raw_value: '500 mg' }, frequency: { structured_value: 'EVERY_6_HOURS' },
      as_needed: true, as_needed_reason: 'knee pain', route: 'oral', metadata: { origin: 'USER' },
    });
    const metformin = await api().call(sdRoutes['medication-orders'].add, { ...visit(f.id), body: { drug_name: 'metformin', rxcui: '6809', dose_quantity: 500, dose_unit: 'MG', frequency: 'TWO_A_DAY', status: 'CONTINUED' } });
    expect(metformin.status, metformin.text).toBe(201);
    expect(metformin.body.structured_data.orders.medication_orders.values[2]).toMatchObject({ drug_name: 'metformin', status: 'ACTIVE', metadata: { origin: 'USER', encounter_relation: 'CURRENT_ENCOUNTER' }, as_needed: false });
  });

  it('adds an allergy and a lab order, which older notes had no list for', async () => {
    const allergy = await api().call(sdRoutes.allergies.add, { ...visit(f.id), body: { substance: 'penicillin G', substance_code: { code: '7980', type: 'RXCUI' }, reaction: 'rash' } });
    expect(allergy.status, allergy.text).toBe(201);
    expect(allergy.body.structured_data.allergies.values).toEqual([
      { substance: 'penicillin G', substance_code: { code: '7980', type: 'RXCUI', display: 'penicillin G' }, reaction: 'rash', verification: 'CONFIRMED', evidence: null },
    ]);
    const lab = await api().call(sdRoutes['service-orders'].add, { ...visit(f.id), body: { name: 'basic metabolic panel', category: 'LAB', loinc: '51990-0', timing: 'before the next visit' } });
    expect(lab.status, lab.text).toBe(201);
    expect(lab.body.structured_data.orders.service_orders.values[0]).toMatchObject({ name: 'basic metabolic panel', category: 'LAB', code: { code: '51990-0', type: 'LOINC' }, timing: 'before the next visit' });
    const xray = await api().call(sdRoutes['service-orders'].add, { ...visit(f.id), body: { name: 'knee x-ray, weight bearing', category: 'IMAGING' } });
    expect(xray.body.structured_data.orders.service_orders.values[1]).toEqual({ name: 'knee x-ray, weight bearing', category: 'IMAGING', code: null, timing: null, evidence: null });
    expect((await api().call(sdRoutes['service-orders'].remove, await sdAt(f.id, 1))).status).toBe(200);
  });

  it('keeps every change in the history with who, when, before and after, newest first', async () => {
    const h = await api().call(getStructuredDataHistory, visit(f.id));
    expect(h.status, h.text).toBe(200);
    const changes = h.body.changes as { kind: string; action: string; position: number; by: { provider_id: string }; at: string; before: any; after: any }[];
    expect(changes.map((c) => `${c.kind}:${c.action}:${c.position}`)).toEqual([
      'service_orders:remove:1', 'service_orders:add:1', 'service_orders:add:0', 'allergies:add:0',
      'medication_orders:add:2', 'medication_orders:edit:1',
      'diagnoses:remove:2', 'diagnoses:add:2', 'diagnoses:edit:1', 'diagnoses:add:1',
    ]);
    expect(new Set(changes.map((c) => c.by.provider_id)).size).toBe(1);
    expect(changes[0]!.by).toEqual({ provider_id: expect.stringMatching(UUID), name: 'Dr Test' });
    for (const c of changes) expect(Date.parse(c.at)).not.toBeNaN();
    const edit = changes.find((c) => c.kind === 'medication_orders' && c.action === 'edit')!;
    expect(edit.before).toMatchObject({ drug_name: 'acetaminophen', dosage: { quantity: null } });
    expect(edit.after).toMatchObject({ drug_name: 'acetaminophen', dosage: { quantity: 500 } });
    const dxEdit = changes.find((c) => c.kind === 'diagnoses' && c.action === 'edit')!;
    expect([dxEdit.before.codes[0].code, dxEdit.after.codes[0].code]).toEqual(['E11.9', 'E11.65']);
    expect(changes.find((c) => c.action === 'remove')!.after).toBeNull();

    // The note's own history (the one listing section edits, signs and amends) lists the same changes, oldest first.
    const note = await api().call(getNoteHistory, visit(f.id));
    expect(note.status, note.text).toBe(200);
    const coded = (note.body.events as { type: string; kind: string; action: string; position: number; by: unknown; at: string; before: any; after: any }[]).filter((e) => e.type === 'structured_data');
    expect(coded.map((e) => `${e.kind}:${e.action}:${e.position}`)).toEqual(changes.map((c) => `${c.kind}:${c.action}:${c.position}`).reverse());
    const noteDxEdit = coded.find((e) => e.kind === 'diagnoses' && e.action === 'edit')!;
    expect(noteDxEdit.by).toEqual(changes[0]!.by);
    expect([noteDxEdit.before.codes[0].code, noteDxEdit.after.codes[0].code]).toEqual(['E11.9', 'E11.65']);
    expect(noteDxEdit.before).toEqual(dxEdit.before);
    expect(Date.parse(noteDxEdit.at)).toBe(Date.parse(dxEdit.at));
    // Paged one event at a time, the cursor walks through the coded changes too, each once.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { events: { type: string; at: string; kind?: string; action?: string }[]; next_cursor: string | null } } = await api().call(getNoteHistory, { ...visit(f.id), query: { limit: 1, cursor: cursor ?? undefined } });
      paged.push(...page.body.events.map((e) => `${e.type}:${e.kind ?? ''}:${e.action ?? ''}:${e.at}`));
      cursor = page.body.next_cursor;
    } while (cursor && paged.length < 100);
    expect(paged).toEqual((note.body.events as { type: string; at: string; kind?: string; action?: string }[]).map((e) => `${e.type}:${e.kind ?? ''}:${e.action ?? ''}:${e.at}`));
  });
});

describe('refusals', () => {
  it('answer 400 naming the field for a code not in the code sets or a malformed body', async () => {
    const cases: [keyof typeof sdRoutes, unknown, RegExp][] = [
      ['diagnoses', { code: 'X99.99' }, /^code: X99\.99 is not an ICD-10-CM code/],
      ['diagnoses', {}, /code/],
      ['medication-orders', { drug_name: 'x', rxcui: '999999999', status: 'NEW' }, /^rxcui: /],
      ['medication-orders', { drug_name: 'metformin', status: 'MAYBE' }, /status/],
      ['medication-orders', { drug_name: 'metformin', status: 'NEW', dose_quantity: -5 }, /dose_quantity/],
      ['medication-orders', { drug_name: 'metformin', status: 'NEW', as_needed: false, as_needed_reason: 'pain' }, /^as_needed_reason: /],
      ['allergies', { substance: 'x', substance_code: { code: '424242', type: 'DRUG_CLASS' } }, /^substance_code\.code: /],
      ['allergies', { substance: 'latex', verification: 'SURE' }, /verification/],
      ['service-orders', { name: 'bmp', category: 'LAB', loinc: '99999-9' }, /^loinc: /],
      ['service-orders', { name: 'bmp', category: 'BLOOD' }, /category/],
    ];
    for (const [segment, body, message] of cases) {
      const r = await api().call(sdRoutes[segment].add, { ...visit(f.id), body: unchecked(body) });
      expect(r.status, `${segment} ${JSON.stringify(body)}: ${r.text}`).toBe(400);
      expect(r.body.code).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    const badPosition = await api().call(sdRoutes.diagnoses.update, { ...sdItem(f.id, unchecked('first'), 'x'), body: { code: 'I10' } });
    expect(badPosition.status).toBe(400);
    expect(badPosition.body.message).toContain('position');
  });

  it('refuse a change by position made on a version the data has moved on from (409 naming version), changing nothing', async () => {
    const structuredData = async () => (await api().call(getSessionStructuredData, visit(f.id))).body;
    const seen = await structuredData();
    expect(seen.structured_data_version).toMatch(/^[0-9a-f]{20}$/);
    expect((await api().call(getSessionContent, visit(f.id))).body.structured_data_version).toBe(seen.structured_data_version);
    // Another tab changes the first diagnosis; its answer carries the new version.
    const first = await api().call(sdRoutes.diagnoses.update, { ...sdItem(f.id, 0, seen.structured_data_version), body: { code: 'I10', diagnosis_note: 'Controlled on lisinopril.' } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.structured_data_version).not.toBe(seen.structured_data_version);
    expect((await structuredData()).structured_data_version).toBe(first.body.structured_data_version);
    // This tab still holds the old version: its change and its removal are refused, and what the other tab saved stays.
    const stale = await api().call(sdRoutes.diagnoses.update, { ...sdItem(f.id, 0, seen.structured_data_version), body: { code: 'I10', diagnosis_note: 'Stale text.' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: 409, message: expect.stringMatching(/^version: the structured data changed since version [0-9a-f]{20} \(it is now [0-9a-f]{20}\)/) });
    const staleRemove = await api().call(sdRoutes.diagnoses.remove, sdItem(f.id, 1, seen.structured_data_version));
    expect(staleRemove.status).toBe(409);
    expect(staleRemove.body.message).toMatch(/^version: /);
    const now = await structuredData();
    expect(now.structured_data.diagnoses.values.map((d: { diagnosis_note: string }) => d.diagnosis_note)).toEqual([
      'Controlled on lisinopril.',
      seen.structured_data.diagnoses.values[1].diagnosis_note,
    ]);
    expect(now.structured_data_version).toBe(first.body.structured_data_version);
    const history = (await api().call(getStructuredDataHistory, visit(f.id))).body.changes as { action: string; after: { diagnosis_note?: string } | null }[];
    expect(history.filter((c) => c.after?.diagnosis_note === 'Stale text.')).toEqual([]);
    // Without a version a change by position is refused too, naming the field; an add needs none.
    const bare = await api().call(sdRoutes.diagnoses.update, { ...sdItem(f.id, 0), body: { code: 'I10' } });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toMatch(/version/);
    expect((await api().call(sdRoutes.diagnoses.remove, sdItem(f.id, 0))).status).toBe(400);
  });

  it("hide another tenant's or provider's session (404), refuse READONLY partners (403) and a visit without a note (409)", async () => {
    for (const who of [f.outsider, f.colleague]) {
      const r = await api(who).call(sdRoutes.diagnoses.add, { ...visit(f.id), body: { code: 'I10' } });
      expect(r.status, r.text).toBe(404);
      expect((await api(who).call(getStructuredDataHistory, visit(f.id))).status).toBe(404);
    }
    const ro = await api(f.reader).call(sdRoutes.allergies.add, { ...visit(f.id), body: { substance: 'latex' } });
    expect(ro.status).toBe(403);
    expect(ro.body.code).toBe(403);
    const early = await api().call(sdRoutes.allergies.add, { ...visit(f.pending), body: { substance: 'latex' } });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/not been generated/);
  });

  it('lock with the signature (409) until an amendment reopens the structured data with the sections', async () => {
    const signed = await api().call(signNote, visit(f.id));
    expect(signed.status, signed.text).toBe(200);
    const locked = await api().call(sdRoutes.allergies.add, { ...visit(f.id), body: { substance: 'latex', reaction: 'hives' } });
    expect(locked.status).toBe(409);
    expect(locked.body).toEqual({ code: 409, message: expect.stringMatching(/signed; amend it/) });
    expect((await api().call(sdRoutes.diagnoses.remove, await sdAt(f.id, 0))).status).toBe(409);
    expect((await api().call(amendNote, { ...visit(f.id), body: { reason: 'Latex allergy reported after the visit' } })).status).toBe(200);
    const after = await api().call(sdRoutes.allergies.add, { ...visit(f.id), body: { substance: 'latex', reaction: 'hives', verification: 'REPORTED' } });
    expect(after.status, after.text).toBe(201);
    expect(after.body.structured_data.allergies.values.map((a: { substance: string }) => a.substance)).toEqual(['penicillin G', 'latex']);
  });
});
