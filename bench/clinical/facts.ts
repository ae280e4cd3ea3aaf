/**
 * The clinical facts a note carries, and how two sets of them compare: diagnoses at ICD-10-CM category
 * level (first 3 characters, Z codes left out), medications by RxNorm ingredient, and each medication's
 * dose (quantity + unit) and frequency (info-list code) as separate facts, so a drug found with a wrong or
 * missing dose counts for the ingredient but not for the dose.
 */
import { defaultCodeIndex } from '../../server/codesets/index';
import { analyze, conditionMentions } from '../../server/engines/notes/embedded/analyze';
import { findDrugs, parseOrder } from '../../server/engines/notes/embedded/meds';
import type { NoteResult } from '../../server/engines/notes/types';

export interface NoteFacts {
  dx: Set<string>;
  drugs: Set<string>;
  doses: Set<string>;
  frequencies: Set<string>;
}

export function noteFacts(r: Pick<NoteResult, 'structured_data'>): NoteFacts {
  const orders = [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];
  return {
    dx: new Set(r.structured_data.diagnoses.values.map((d) => d.codes.find((c) => c.type === 'ICD10')?.code.slice(0, 3) ?? '').filter((c) => c && !c.startsWith('Z'))),
    drugs: new Set(orders.map((o) => o.drug_name)),
    doses: new Set(orders.filter((o) => o.dosage.quantity !== null && o.dosage.unit).map((o) => `${o.drug_name} ${o.dosage.quantity} ${o.dosage.unit}`)),
    frequencies: new Set(orders.filter((o) => o.frequency.structured_value).map((o) => `${o.drug_name} ${o.frequency.structured_value}`)),
  };
}

export interface Tally { tp: number; predicted: number; reference: number }

export function tally(predicted: Set<string>, reference: Set<string>, into: Tally = { tp: 0, predicted: 0, reference: 0 }): Tally {
  into.predicted += predicted.size;
  into.reference += reference.size;
  for (const x of predicted) if (reference.has(x)) into.tp++;
  return into;
}

export function precision(t: Tally): number {
  return t.predicted ? t.tp / t.predicted : 0;
}
export function recall(t: Tally): number {
  return t.reference ? t.tp / t.reference : 0;
}

/**
 * What a scribe's reference note states: drugs anywhere (with the dose and frequency written next to
 * them), diagnoses in its assessment/plan part, read with the engine's own lexicon and sig parser.
 */
export function referenceFacts(note: string): NoteFacts {
  const facts: NoteFacts = { dx: new Set(), drugs: new Set(), doses: new Set(), frequencies: new Set() };
  for (const line of note.split('\n')) {
    for (const d of findDrugs(line)) {
      facts.drugs.add(d.ingredient);
      const o = parseOrder(line, d, defaultCodeIndex());
      if (o.dosage.quantity !== null && o.dosage.unit) facts.doses.add(`${d.ingredient} ${o.dosage.quantity} ${o.dosage.unit}`);
      if (o.frequency.structured_value) facts.frequencies.add(`${d.ingredient} ${o.frequency.structured_value}`);
    }
  }
  const ap = /\n(ASSESSMENT|IMPRESSION|PLAN)/.exec(note);
  const apText = ap ? note.slice(ap.index) : note;
  const lines = apText.split('\n').map((t, i) => ({ transcriptId: `r${i}`, speaker: 'CLINICIAN' as const, text: t, startMs: 0, endMs: 0 }));
  for (const s of analyze(lines).sentences)
    for (const m of conditionMentions(s)) if (!m.negated && !m.family && !/^Z/.test(m.code)) facts.dx.add(m.code.slice(0, 3));
  return facts;
}
