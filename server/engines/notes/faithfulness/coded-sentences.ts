import type { StructuredData } from '../types';
import type { Fact } from './types';

const UNIT: Record<string, string> = { MG: 'mg', MCG: 'mcg', G: 'g', ML: 'ml', UNIT: 'unit', IU: 'iu', TAB: 'tablet', CAP: 'capsule', PUFF: 'puff', DROP: 'drop', SPRAY: 'spray', PATCH: 'patch', MEQ: 'meq' };

/**
 * The coded data as sentences with facts taken from the codes themselves: a diagnosis is its ICD-10-CM
 * category, an order its ingredient, its dose (bound to the ingredient) and its frequency code. Z codes
 * (statuses, encounters) are not problems and are left out.
 */
export function codedSentences(data: StructuredData): Array<{ section: string; text: string; claimed: string[]; facts: Fact[] }> {
  const out: Array<{ section: string; text: string; claimed: string[]; facts: Fact[] }> = [];
  for (const d of data.diagnoses.values) {
    const icd = d.codes.find((c) => c.type === 'ICD10');
    if (!icd || icd.code.startsWith('Z')) continue;
    out.push({ section: 'CODED DATA', text: `${icd.code} ${icd.description}`, claimed: [], facts: [{ kind: 'problem', text: icd.description, key: icd.code.slice(0, 3) }] });
  }
  for (const o of [...data.orders.medication_orders.values, ...data.orders.medication_orders.partial_values]) {
    const facts: Fact[] = [{ kind: 'drug', text: o.drug_name, key: o.drug_name }];
    const unit = o.dosage.unit ? UNIT[o.dosage.unit] ?? o.dosage.unit.toLowerCase() : '';
    if (o.dosage.quantity !== null) facts.push({ kind: 'dose', text: `${o.dosage.quantity} ${unit}`.trim(), key: `${o.dosage.quantity} ${unit}`.trim(), value: String(o.dosage.quantity), unit, drug: o.drug_name });
    if (o.frequency.structured_value) facts.push({ kind: 'frequency', text: o.frequency.raw_value ?? o.frequency.structured_value, key: o.frequency.structured_value });
    out.push({ section: 'CODED DATA', text: [o.drug_name, facts[1]?.text ?? '', o.frequency.raw_value ?? '', `(${o.status})`].filter(Boolean).join(' '), claimed: [], facts });
  }
  return out;
}
