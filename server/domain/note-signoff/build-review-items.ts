import type { NoteReviewItem, ReviewItemKind } from '@/lib/contracts/note-review';
import type { RecordingGap, StructuredData, SummarySection } from '@/lib/contracts/sessions';
import { checkNoteFaithfulness, type FaithfulnessContext, type SentenceResult } from '../../engines/notes/faithfulness';
import { codedSentences } from '../../engines/notes/faithfulness/coded-sentences';
import type { LeftOutItem, MedicationOrder, TranscriptLine } from '../../engines/notes/types';
import { reviewItemId } from './review-item-id';
import { checkDosePlausibility, type ImplausibleDose } from './check-dose-plausibility';
import { durationMs, formatDuration } from '@/lib/transcript/duration';
import { gapCauseWords, gapHeading } from '@/lib/transcript/recording-gap-cause';

export interface ReviewInputs {
  summary: SummarySection[];
  structuredData: StructuredData;
  /** What the engine or its guard kept out of the note, as stored with it. */
  leftOut: LeftOutItem[];
  /** LOINC codes of the sections changed since the note was generated. */
  edited: ReadonlySet<string>;
  transcript: TranscriptLine[];
  context: FaithfulnessContext;
  /**
   * Coded items as the clinician entered them through the structured-data editor. The clinician is their
   * source, so the review does not ask them to confirm their own entry against the transcript.
   */
  clinicianEntered?: StructuredData;
  /** Stretches of the visit no recording holds (a recorder left stopped after a reload). */
  recordingGaps?: RecordingGap[];
}

const LEFT_OUT_DETAIL: Record<LeftOutItem['reason'], string> = {
  LOW_CONFIDENCE: 'The recogniser was unsure of these words, so they were left out of the note. They are still in the transcript; listen and add them if they matter.',
  UNSUPPORTED: 'Removed: not found in the visit. Nothing in the transcript or the visit context says it.',
  NOT_UNDERSTOOD: 'The answer was heard but could not be read as an allergy or as none, so no allergy was recorded. Listen to it and add the allergy if there is one.',
};
/** A dose said in words the engine could not read as an order (unread-doses.ts): the note may state an old dose. */
const DOSE_NOT_UNDERSTOOD =
  'A dose was said for this drug, but the words around it could not be read as an order, so no order or medication line states it. Listen to it and correct the medication if the dose changed.';
/**
 * What an unsure span cost the note, by what was left out: a whole sentence, only the unsure words, or part of an order
 * (a browser trial's clinician read "these words were left out" of sentences missing from the note entirely).
 */
const LOW_CONFIDENCE_DETAIL: Partial<Record<LeftOutItem['kind'], string>> = {
  sentence:
    'The recogniser was unsure of the words shown as [unclear], so this whole sentence was left out of the note. It is still in the transcript; listen and add it if it matters.',
  span: 'The recogniser was unsure of the words shown as [unclear], so they were left out; the note keeps only what stands without them. Listen and add them if they matter.',
  medication_order:
    'The recogniser was unsure of part of this order, so the coded order lacks what is named here. Listen and complete the medication if it matters.',
};
const leftOutDetail = (l: LeftOutItem) =>
  l.reason === 'NOT_UNDERSTOOD' && l.kind === 'medication_order'
    ? DOSE_NOT_UNDERSTOOD
    : l.reason === 'LOW_CONFIDENCE'
      ? (LOW_CONFIDENCE_DETAIL[l.kind] ?? LEFT_OUT_DETAIL.LOW_CONFIDENCE)
      : LEFT_OUT_DETAIL[l.reason];

function contradiction(s: SentenceResult, orders: MedicationOrder[]): string | null {
  const r = s.facts.find((f) => f.reason === 'contradicts-coded-order');
  if (!r) return null;
  const order = orders.find((o) => o.drug_name === r.fact.drug && (o.status === 'NEW' || o.status === 'CHANGED'));
  const said = `${r.fact.value ?? r.fact.text}${r.fact.unit ? ` ${r.fact.unit}` : ''}`;
  const coded = order ? `${order.dosage.quantity ?? ''} ${(order.dosage.unit ?? '').toLowerCase()}`.trim() : 'another dose';
  return `The note gives ${r.fact.drug} ${said}, but the coded order is ${coded}${order ? ` (${order.status})` : ''}.`;
}

/** A fact nothing in the visit states, or a sentence of the visit's own (not template wording) with no supporting line. */
function noEvidence(s: SentenceResult, template: boolean): string | null {
  const unsupported = s.facts.filter((f) => !f.supported && f.reason !== 'contradicts-coded-order');
  if (unsupported.length > 0) return `Not found in the transcript: ${[...new Set(unsupported.map((f) => f.fact.text))].join(', ')}.`;
  if (s.noEvidence && !s.template && !template) return 'No transcript line supports this sentence.';
  return null;
}

/** A coded order whose dose is implausible for its drug, as the signer reads it: the order, and why it needs a look. */
function implausibleDose(o: MedicationOrder, f: ImplausibleDose): { text: string; detail: string } {
  const text = `${o.drug_name} ${f.said}${o.frequency?.raw_value ? ` ${o.frequency.raw_value}` : ''}`;
  const detail =
    f.reason === 'UNIT'
      ? `${f.said} of ${f.drug}: ${f.drug} is dosed in ${f.unit} (${f.usual}), not in ${f.saidUnit}; check the dose before signing.`
      : f.reason === 'FREQUENCY'
        ? `${f.drug} is taken once a week (${f.usual})${f.alsoDaily ? ` or ${f.alsoDaily}` : ''}; ${f.said} ${f.frequency} is ${f.total}. Check the ${f.alsoDaily ? 'dose and ' : ''}frequency before signing.`
        : f.total
          ? `${f.said} ${f.frequency} of ${f.drug} is ${f.total}, above its usual maximum (${f.usual}); check the dose and frequency before signing.`
          : `${f.said} of ${f.drug} is ${f.reason === 'HIGH' ? 'above' : 'far below'} its usual dose (${f.usual}); check the dose before signing.`;
  // Only a finding its frequency made names the frequency: the other findings keep the words their tests pin.
  const wrong = f.frequency ? 'the dose or frequency is' : 'the dose is';
  return { text, detail: `${detail} The order is coded as it was said or entered; correct it in the structured data if ${wrong} wrong.` };
}

/**
 * The gap as the signer reads it: where on the recording, how long, and why when the recorder said so. Not its
 * wall clock: the server knows no signer's time zone, and the transcript's divider beside it shows that in
 * theirs. A pause stays an item: the note cannot hold what was said while paused, but it is named as the
 * clinician's own pause rather than as a fault.
 */
function notRecorded(g: RecordingGap): { text: string; detail: string } {
  const seconds = Math.round(g.duration_ms / 1000);
  const at = formatDuration(durationMs(g.at_offset));
  const heading = gapHeading(g.cause);
  const where = `where the transcript reaches ${at} (its "${heading}" line gives the time of day)`;
  const missing = 'Anything said then is not in the transcript or this note; add it if it matters.';
  const why = gapCauseWords(g.cause);
  const detail =
    g.cause === 'PAUSED'
      ? `Recording was paused for ${seconds} s ${where}. ${missing}`
      : why
        ? `Nothing was recorded for ${seconds} s ${where}: ${why}. ${missing}`
        : `Nothing was recorded for ${seconds} s ${where}: ` +
          "recording was paused or stopped (a pause, a page reload) or the computer did not deliver the microphone's sound. " +
          missing;
  return { text: `${heading}: ${seconds} s at ${at}`, detail };
}

/**
 * What the signer must decide on before signing: spans and facts the engine kept out, note text that
 * contradicts a coded order, sentences and coded items no transcript line supports, coded orders whose dose is
 * implausible for the drug, stretches of the visit
 * that were never recorded, and sections edited since generation. Sentences of an edited section are the clinician's own words, so only contradictions
 * are listed for them; the edit itself is an item.
 */
export function buildReviewItems(input: ReviewInputs): NoteReviewItem[] {
  const titles = new Map(input.summary.map((s) => [s.loinc_code, s.title]));
  const templates = new Set(input.summary.flatMap((s) => (s.sentences ?? []).filter((x) => x.template).map((x) => `${s.loinc_code}\n${x.text}`)));
  const items = new Map<string, NoteReviewItem>();
  const add = (kind: ReviewItemKind, text: string, detail: string, loinc: string | null, sources: string[] = []) => {
    const id = reviewItemId(kind, loinc, text);
    if (!items.has(id)) items.set(id, { id, kind, text, detail, loinc_code: loinc, section_title: loinc ? (titles.get(loinc) ?? null) : null, source_transcripts: sources });
  };

  for (const l of input.leftOut) add(l.reason, l.text, leftOutDetail(l), l.loinc_code ?? null, l.source_transcripts);

  const report = checkNoteFaithfulness({ summary: input.summary, structured_data: input.structuredData }, input.transcript, input.context);
  const orders = [...input.structuredData.orders.medication_orders.values, ...input.structuredData.orders.medication_orders.partial_values];
  for (const s of report.sentences) {
    const loinc = s.loinc ?? null;
    const clash = contradiction(s, orders);
    if (clash) add('CONTRADICTION', s.text, clash, loinc, s.evidence.filter((id) => !id.startsWith('context:')));
    else if (!(loinc && input.edited.has(loinc))) {
      const missing = noEvidence(s, templates.has(`${loinc}\n${s.text}`));
      if (missing) add('NO_EVIDENCE', s.text, missing, loinc);
    }
  }
  const entered = new Set(input.clinicianEntered ? codedSentences(input.clinicianEntered).map((c) => c.text) : []);
  for (const c of report.coded) {
    if (entered.has(c.text)) continue;
    const missing = noEvidence(c, false);
    if (missing) add('NO_EVIDENCE', c.text, `Coded item: ${missing}`, null);
  }
  // Every coded order, the clinician's own entries too: a unit slip in the editor is as dangerous as one heard.
  for (const o of orders) {
    const finding = checkDosePlausibility(o);
    if (!finding) continue;
    const { text, detail } = implausibleDose(o, finding);
    add('IMPLAUSIBLE_DOSE', text, detail, null, o.source_transcripts ?? []);
  }
  for (const g of input.recordingGaps ?? []) {
    const { text, detail } = notRecorded(g);
    add('NOT_RECORDED', text, detail, null);
  }
  for (const s of input.summary) {
    if (input.edited.has(s.loinc_code)) add('EDITED_SECTION', s.title, 'Changed since the note was generated. Check the edits in the note history.', s.loinc_code);
  }
  return [...items.values()];
}
