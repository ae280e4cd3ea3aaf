/**
 * An implausible dose on a live server: an order the clinician sets to 10 g of lisinopril in the structured-data
 * editor (the unit slip of the browser trial, by hand) is an IMPLAUSIBLE_DOSE item of the review before signing,
 * signing without a decision on it is refused naming review.items, and OpenAPI lists the kind.
 */
import { describe, expect, it } from 'vitest';
import { sdItem, sdRoutes, useStructuredDataVisit } from '../../test/structured-data-fixture';
import { testApi } from '../../test/api-client';
import { getSessionStructuredData } from '@/lib/contracts/routes/sessions';
import { getOpenApiDocument } from '@/lib/contracts/routes/meta';
import { getNoteHistory, getNoteReview, signNote } from '@/lib/contracts/routes/workflow';
import type { NoteReviewItem } from '@/lib/contracts/note-review';

const f = useStructuredDataVisit();

const api = () => testApi(f.server, f.dr);
const visit = () => ({ params: { ambient_session_id: f.id } });
const decide = (items: NoteReviewItem[]) => items.map(({ id: itemId, kind, text, loinc_code }) => ({ id: itemId, kind, text, loinc_code, decision: 'ACKNOWLEDGED' as const }));

describe('an implausible dose in the review before signing', () => {
  it('is listed for an order the clinician set to 10 g of lisinopril in the editor, and signing without a decision on it is refused', async () => {
    const before = await api().call(getNoteReview, visit());
    expect(before.status, before.text).toBe(200);
    expect(before.body.items.filter((i: NoteReviewItem) => i.kind === 'IMPLAUSIBLE_DOSE')).toEqual([]);

    const version = (await api().call(getSessionStructuredData, visit())).body.structured_data_version as string;
    const edit = await api().call(sdRoutes['medication-orders'].update, {
      ...sdItem(f.id, 0, version),
      body: { drug_name: 'lisinopril', rxcui: '29046', dose_quantity: 10, dose_unit: 'G', frequency: 'ONE_A_DAY', status: 'CHANGED', route: 'oral' },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.structured_data.orders.medication_orders.values[0]).toMatchObject({ dosage: { quantity: 10, unit: 'G' }, metadata: { origin: 'USER' } });

    const review = await api().call(getNoteReview, visit());
    const items = review.body.items as NoteReviewItem[];
    const dose = items.filter((i) => i.kind === 'IMPLAUSIBLE_DOSE');
    expect(dose).toHaveLength(1);
    expect(dose[0]).toMatchObject({ text: expect.stringMatching(/^lisinopril 10 g\b/), loinc_code: null, section_title: null });
    expect(dose[0]!.detail).toMatch(/^10 g of lisinopril is above its usual dose \(2\.5-80 mg a day\); check the dose before signing\./);

    const others = items.filter((i) => i.kind !== 'IMPLAUSIBLE_DOSE');
    const refused = await api().call(signNote, { ...visit(), body: { review: { attested: true, items: decide(others) } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 400, message: expect.stringMatching(/^review\.items: 1 item of the review has no decision \(IMPLAUSIBLE_DOSE "lisinopril 10 g/) });
    expect((await api().call(getNoteHistory, visit())).body.note_status).toBe('draft');

    const signed = await api().call(signNote, { ...visit(), body: { review: { attested: true, items: decide(items) } } });
    expect(signed.status, signed.text).toBe(200);
    const sign = (await api().call(getNoteHistory, visit())).body.events.find((e: { type: string }) => e.type === 'sign');
    expect(sign.review.items.map((i: { kind: string }) => i.kind)).toContain('IMPLAUSIBLE_DOSE');
  });

  it('is a kind OpenAPI documents', async () => {
    const doc = (await testApi(f.server).call(getOpenApiDocument)).body;
    const kind = doc.components.schemas.NoteReviewItem.properties.kind;
    expect(kind.enum).toContain('IMPLAUSIBLE_DOSE');
    expect(kind.description).toMatch(/IMPLAUSIBLE_DOSE \(additive\): a coded medication order whose dose is implausible/);
  });
});
