import { describe, expect, it } from 'vitest';
import { emptyStructuredData } from '@/lib/contracts/sessions';
import { storedStructuredDataVersion, structuredDataVersion } from './structured-data-version';

const dx = (code: string, note: string) => ({ codes: [{ code, description: code, type: 'ICD10' as const }], diagnosis_note: note });

describe('structured data version (issue 29 stale-write guard)', () => {
  it('is the same for the same data whatever the key order or the evidence computed on read', () => {
    const a = emptyStructuredData();
    a.diagnoses.values = [dx('I10', 'Controlled.')];
    const b = JSON.parse(JSON.stringify(a, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
    b.diagnoses.values[0].evidence = { start_ms: 1, end_ms: 2 };
    expect(Object.keys(b)).not.toEqual(Object.keys(a));
    expect(structuredDataVersion(b)).toBe(structuredDataVersion(a));
    // As stored (no allergies or service-order list yet) it reads as the content answers it.
    expect(storedStructuredDataVersion({ diagnoses: { values: [dx('I10', 'Controlled.')] } })).toBe(structuredDataVersion(a));
  });

  it('changes with any change of an item, its order in the list, or an item added', () => {
    const a = emptyStructuredData();
    a.diagnoses.values = [dx('I10', 'Controlled.'), dx('E11.9', 'On metformin.')];
    const v = structuredDataVersion(a);
    const edited = structuredClone(a);
    edited.diagnoses.values[0]!.diagnosis_note = 'Controlled on lisinopril.';
    const swapped = structuredClone(a);
    swapped.diagnoses.values.reverse();
    const added = structuredClone(a);
    added.allergies.values.push({ substance: 'latex', substance_code: null, reaction: null, verification: 'REPORTED' });
    const versions = [v, structuredDataVersion(edited), structuredDataVersion(swapped), structuredDataVersion(added)];
    expect(new Set(versions).size).toBe(4);
    for (const x of versions) expect(x).toMatch(/^[0-9a-f]{20}$/);
  });
});
