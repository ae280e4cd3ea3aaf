/** Issue 29: the encounter's structured data carries every session's allergies and lab/imaging orders, each once. */
import { describe, expect, it } from 'vitest';
import { emptyStructuredData, storedStructuredData, type ContentResponse } from '@/lib/contracts/sessions';
import { mergeEncounterContent } from './merge-encounter-content';

function note(allergies: Array<[string, string | null]>, orders: Array<[string, string | null]>): ContentResponse {
  const sd = emptyStructuredData();
  sd.allergies.values = allergies.map(([substance, code]) => ({ substance, substance_code: code ? { code, type: 'DRUG_CLASS' as const } : null, reaction: null, verification: 'REPORTED' as const }));
  sd.orders.service_orders.values = orders.map(([name, code]) => ({ name, category: 'LAB' as const, code: code ? { code, type: 'LOINC' as const, display: name } : null, timing: null }));
  return { summary: [], structured_data: sd };
}

describe('encounter structured data (issue 29)', () => {
  it('merges allergies by substance code (else name) and orders by LOINC (else name), the later session winning', () => {
    const merged = mergeEncounterContent([
      note([['penicillin', 'J01C'], ['latex', null]], [['basic metabolic panel', '51990-0'], ['autoimmune panel', null]]),
      note([['penicillins', 'J01C'], ['Latex ', null]], [['bmp', '51990-0'], ['a1c', '4548-4']]),
    ]);
    expect(merged.structured_data.allergies.values.map((a) => a.substance)).toEqual(['penicillins', 'Latex ']);
    expect(merged.structured_data.orders.service_orders.values.map((o) => o.name)).toEqual(['bmp', 'autoimmune panel', 'a1c']);
  });

  it('reads content stored before the lists existed as having none', () => {
    const old = { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] } }, section_structured_values: [] };
    const sd = storedStructuredData(old);
    expect([sd.allergies.values, sd.orders.service_orders.values]).toEqual([[], []]);
    expect(mergeEncounterContent([{ summary: [], structured_data: sd }]).structured_data.allergies.values).toEqual([]);
  });
});
