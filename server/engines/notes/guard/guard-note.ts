import { checkNoteFaithfulness, type Fact, type FactKind, type FaithfulnessContext, type SentenceResult } from '../faithfulness/index';
import type { LeftOutItem, MedicationOrder, NoteRequest, NoteResult, NoteSection, StructuredData, TranscriptLine } from '../types';
import { editSection } from './edit-section';
import { faithfulnessContext } from './faithfulness-context';
import { trimSpan } from './trim-span';

/** What the guard found and did, in counts only: this is what is logged and counted. */
export interface GuardDecision {
  mode: 'remove' | 'record';
  /** Unsupported facts found in the engine's note (text and coded data), by kind. */
  unsupported: number;
  factKinds: Partial<Record<FactKind, number>>;
  /** Sentences with no evidence at all (removed in `remove` mode). */
  noEvidence: number;
  removed: Partial<Record<LeftOutItem['kind'], number>>;
  /** Unsupported facts left in the note: 0 in `remove` mode. */
  remaining: number;
}

const EMPTY_DATA: StructuredData = { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] };
const bad = (s: SentenceResult) => s.facts.filter((r) => !r.supported);
const transcriptIds = (ids: string[]) => ids.filter((id) => !id.startsWith('context:'));
/**
 * The entries that hold a sentence: those that state its facts (the cited ones when they do), else, for a
 * sentence without checkable facts, the cited entries that hold its words, else the entries that do.
 */
function verified(s: SentenceResult): string[] {
  const stating = [...new Set(s.facts.flatMap((r) => r.evidence))];
  return transcriptIds(stating.length ? stating : s.verifiedEvidence.length ? s.verifiedEvidence : s.evidence);
}
/** A coded item's evidence: the cited entries among those that hold it, else all that hold it. */
function narrowed(claimed: string[], results: SentenceResult[]): string[] {
  const ev = [...new Set(results.flatMap(verified))];
  const cited = claimed.filter((id) => ev.includes(id));
  return cited.length ? cited : ev;
}

class Guard {
  readonly leftOut: LeftOutItem[] = [];
  readonly decision: GuardDecision;
  private readonly ctx: FaithfulnessContext;
  constructor(
    private readonly transcript: TranscriptLine[],
    req: NoteRequest,
    mode: GuardDecision['mode'],
  ) {
    this.ctx = faithfulnessContext(req);
    this.decision = { mode, unsupported: 0, factKinds: {}, noEvidence: 0, removed: {}, remaining: 0 };
  }

  count(results: SentenceResult[]): void {
    for (const s of results) {
      for (const r of bad(s)) {
        this.decision.unsupported++;
        this.decision.factKinds[r.fact.kind] = (this.decision.factKinds[r.fact.kind] ?? 0) + 1;
      }
    }
  }

  leave(kind: LeftOutItem['kind'], text: string, sourceTranscripts: string[], loinc?: string): void {
    this.leftOut.push({ reason: 'UNSUPPORTED', kind, text, ...(loinc ? { loinc_code: loinc } : {}), source_transcripts: transcriptIds(sourceTranscripts) });
    this.decision.removed[kind] = (this.decision.removed[kind] ?? 0) + 1;
  }

  /** One sentence (or a coded item) checked on its own. */
  check(text: string, claimed: string[], data?: StructuredData): SentenceResult[] {
    const summary: NoteSection[] = text ? [{ title: 'CHECK', content: text, loinc_code: '', source_transcripts: claimed, sentences: [{ text, source_transcripts: claimed }] }] : [];
    const r = checkNoteFaithfulness({ summary, structured_data: data ?? EMPTY_DATA }, this.transcript, this.ctx);
    return [...r.sentences, ...r.coded];
  }

  /** Diagnoses: kept with their verified evidence, or removed when the visit does not support them. */
  diagnoses(data: StructuredData): StructuredData['diagnoses']['values'] {
    return data.diagnoses.values.flatMap((d) => {
      const icd = d.codes.find((c) => c.type === 'ICD10');
      // Status and encounter codes (Z) carry no problem fact: their description is checked as words.
      const results = icd?.code.startsWith('Z') ? this.check(icd.description, d.source_transcripts ?? []) : this.check('', [], { ...EMPTY_DATA, diagnoses: { values: [d] } });
      this.count(results);
      if (results.some((s) => bad(s).length)) {
        const allergy = results.some((s) => bad(s).some((r) => r.fact.kind === 'allergy'));
        this.leave(allergy ? 'allergy' : 'diagnosis', icd ? `${icd.code} ${icd.description}` : d.diagnosis_note, d.source_transcripts ?? []);
        return [];
      }
      return [{ ...d, source_transcripts: narrowed(d.source_transcripts ?? [], results) }];
    });
  }

  /**
   * Orders: one whose drug the visit does not name is removed; one with a dose or frequency nobody said
   * loses that value and becomes partial (the clinician completes it), with the value listed as removed.
   */
  orders(data: StructuredData): StructuredData['orders']['medication_orders'] {
    const values: MedicationOrder[] = [];
    const partial: MedicationOrder[] = [];
    const all = [...data.orders.medication_orders.values.map((o) => [o, values] as const), ...data.orders.medication_orders.partial_values.map((o) => [o, partial] as const)];
    for (const [o, into] of all) {
      const results = this.check('', [], { ...EMPTY_DATA, orders: { ...EMPTY_DATA.orders, medication_orders: { values: [o], partial_values: [] } } });
      this.count(results);
      const unsupported = results.flatMap(bad).map((r) => r.fact.kind);
      const claimed = o.source_transcripts ?? [];
      if (unsupported.includes('drug')) {
        this.leave('medication_order', [o.drug_name, o.dosage.raw_value, o.frequency.raw_value].filter(Boolean).join(' '), claimed);
        continue;
      }
      let order: MedicationOrder = o;
      if (unsupported.includes('dose')) {
        this.leave('medication_order', `${o.drug_name} ${o.dosage.raw_value ?? `${o.dosage.quantity} ${o.dosage.unit ?? ''}`}`.trim(), claimed);
        order = { ...order, dosage: { quantity: null, unit: null, raw_value: null } };
      }
      if (unsupported.includes('frequency')) {
        this.leave('medication_order', `${o.drug_name} ${o.frequency.raw_value ?? o.frequency.structured_value ?? ''}`.trim(), claimed);
        order = { ...order, frequency: { raw_value: null, structured_value: null } };
      }
      (order === o ? into : partial).push({ ...order, source_transcripts: narrowed(claimed, results) });
    }
    return { values, partial_values: partial };
  }

  /** A sentence with an unsupported fact loses the clause that states it, or goes; one with no evidence goes. */
  sentence(summary: NoteSection[], s: SentenceResult): NoteSection[] {
    const facts: Fact[] = bad(s).map((r) => r.fact);
    const at = summary.findIndex((x) => x.loinc_code === s.loinc);
    if (at < 0) return summary;
    const section = summary[at];
    const allergy = facts.some((f) => f.kind === 'allergy');
    const trimmed = facts.length ? trimSpan(s.text, facts) : undefined;
    const holds = trimmed && this.check(trimmed.kept, s.claimedEvidence).every((r) => !bad(r).length && !r.noEvidence);
    const next = [...summary];
    if (trimmed && holds) {
      this.leave(allergy ? 'allergy' : 'span', trimmed.removed, s.claimedEvidence, s.loinc);
      next[at] = editSection(section, s.text, trimmed.kept);
    } else {
      this.leave(allergy ? 'allergy' : 'sentence', s.text, s.claimedEvidence, s.loinc);
      next[at] = editSection(section, s.text);
    }
    return next;
  }
}

/** Each sentence keeps only evidence that holds it: the cited entries that do, else those the checker found. */
function withVerifiedEvidence(summary: NoteSection[], report: SentenceResult[]): NoteSection[] {
  return summary.map((sec) => {
    if (!sec.sentences) return sec;
    const sentences = sec.sentences.map((x) => {
      const r = report.find((s) => s.loinc === sec.loinc_code && s.text === x.text);
      return r ? { ...x, source_transcripts: verified(r) } : x;
    });
    return { ...sec, sentences, source_transcripts: [...new Set(sentences.flatMap((x) => x.source_transcripts))] };
  });
}

/**
 * The faithfulness guard (issue 32 item 1) on one engine's note. `record` (the embedded engine, which writes
 * only what it can point to) counts what the checker finds and changes nothing. `remove` (a language model)
 * takes every unsupported fact out of the coded data and the text, clause or sentence, drops sentences with
 * no evidence, re-checks until nothing unsupported is left, and lists each removal in left_out as UNSUPPORTED.
 */
export function guardNote(note: NoteResult, req: NoteRequest, mode: GuardDecision['mode']): { note: NoteResult; decision: GuardDecision } {
  const g = new Guard(req.transcript, req, mode);
  if (mode === 'record') {
    const report = checkNoteFaithfulness(note, req.transcript, faithfulnessContext(req));
    g.count([...report.sentences, ...report.coded]);
    g.decision.noEvidence = report.sentences.filter((s) => s.noEvidence && !s.template).length;
    g.decision.remaining = report.unsupported.length;
    return { note, decision: g.decision };
  }
  const structured_data: StructuredData = { ...note.structured_data, diagnoses: { values: g.diagnoses(note.structured_data) }, orders: { ...note.structured_data.orders, medication_orders: g.orders(note.structured_data) } };
  let summary = note.summary;
  let report = checkNoteFaithfulness({ summary, structured_data }, req.transcript, faithfulnessContext(req));
  g.count(report.sentences);
  // A trimmed sentence is checked before it is kept, so a second pass finds nothing; the bound is a backstop.
  for (let pass = 0; pass < 3; pass++) {
    const failing = report.sentences.filter((s) => bad(s).length || s.noEvidence);
    if (!failing.length) break;
    if (pass === 0) g.decision.noEvidence = failing.filter((s) => !bad(s).length).length;
    for (const s of failing) summary = g.sentence(summary, s);
    report = checkNoteFaithfulness({ summary, structured_data }, req.transcript, faithfulnessContext(req));
  }
  g.decision.remaining = report.unsupported.length;
  const leftOut = [...(note.left_out ?? []), ...g.leftOut];
  return {
    note: { ...note, summary: withVerifiedEvidence(summary, report.sentences), structured_data, ...(leftOut.length ? { left_out: leftOut } : {}) },
    decision: g.decision,
  };
}
