import { extractFacts } from './extract-facts';
import { normaliseForMatching } from './normalise-for-matching';
import type { EvidenceEntry, Fact, FaithfulnessContext } from './types';

const ICD10 = /^[A-TV-Z]\d[0-9A-Z](?:\.?[0-9A-Z]{1,4})?$/i;

/**
 * The session context as evidence entries ("context:emr.medications[0]", …): what the EMR, the visit
 * booking or the clinician already stated supports a note fact as much as the visit does.
 */
export function contextEntries(context: FaithfulnessContext): EvidenceEntry[] {
  const items: Array<{ id: string; text: string; extra?: Fact[] }> = [];
  const v = context.visit ?? {};
  for (const k of ['chief_complaint', 'reason_for_visit'] as const) if (v[k]) items.push({ id: `context:visit.${k}`, text: v[k]! });
  context.emrContext?.medications.forEach((m, i) => items.push({ id: `context:emr.medications[${i}]`, text: m.name }));
  context.emrContext?.problems.forEach((p, i) =>
    items.push({ id: `context:emr.problems[${i}]`, text: p.name, extra: p.code && ICD10.test(p.code) ? [{ kind: 'problem', text: p.name, key: p.code.slice(0, 3).toUpperCase() }] : [] }),
  );
  context.contextDiagnoses?.forEach((d, i) =>
    items.push({
      id: `context:diagnoses[${i}]`,
      text: [...d.codes.map((c) => c.description), d.diagnosis_note ?? ''].join('. '),
      extra: d.codes.filter((c) => c.type === 'ICD10').map((c) => ({ kind: 'problem', text: c.description, key: c.code.slice(0, 3).toUpperCase() })),
    }),
  );
  context.contextMedicationOrders?.forEach((o, i) =>
    items.push({
      id: `context:medication_orders[${i}]`,
      text: [o.drug_name, o.dosage.quantity !== null ? `${o.dosage.quantity} ${o.dosage.unit ?? ''}` : '', o.frequency.raw_value ?? ''].join(' '),
      extra: o.frequency.structured_value ? [{ kind: 'frequency', text: o.frequency.structured_value, key: o.frequency.structured_value }] : [],
    }),
  );
  context.clinicianText?.forEach((t, i) => items.push({ id: `context:clinician[${i}]`, text: t }));
  return items.map((it, n) => ({
    id: it.id,
    index: -1 - n,
    role: 'CONTEXT',
    text: it.text,
    tokens: new Set(normaliseForMatching(it.text).split(' ')),
    facts: [...extractFacts(it.text), ...(it.extra ?? [])]
      .filter((f, i, all) => all.findIndex((g) => g.kind === f.kind && g.key === f.key) === i)
      .map((f) => ({ ...f, polarity: { pos: f.kind !== 'negation', neg: f.kind === 'negation' } })),
    agrees: false,
  }));
}
