import type { TranscriptLine } from '../types';
import { buildEvidenceIndex } from './build-evidence-index';
import { codedSentences } from './coded-sentences';
import { contradictsOrder } from './contradicts-order';
import { extractFacts } from './extract-facts';
import { misfiled } from './misfiled';
import { noteSentences } from './note-sentences';
import { overlapEvidence } from './overlap-evidence';
import { speechFlags } from './speech-flags';
import { supportFact } from './support-fact';
import { templateKind } from './template-kind';
import type { Fact, FaithfulnessContext, FaithfulnessReport, NoteInput, SentenceResult } from './types';

// A scribe label before the sentence ("Patient Agreements: …", "Integumentary: …").
const ALLERGIES = '48765-2';
const LABEL = /^[A-Z][A-Za-z ,/&-]{2,40}:\s+/;

/**
 * Checks every sentence of a note, and its coded data, against the transcript and the session context: the
 * facts each sentence states and whether each is supported (after normalisation, spoken numbers included),
 * the entries that support it, whether the entries the engine cited hold it (ids that do not exist are no
 * evidence), sentences with no evidence at all, the engine's fixed wording, text pasted from speech, and facts
 * filed in the wrong section.
 * Pure and synchronous; one pass over the transcript, then per sentence.
 */
export function checkNoteFaithfulness(note: NoteInput, transcript: TranscriptLine[], context: FaithfulnessContext = {}): FaithfulnessReport {
  const entries = buildEvidenceIndex(transcript, context);
  const known = new Set(entries.map((e) => e.id));
  const data = typeof note === 'string' ? undefined : note.structured_data;
  const orders = data ? [...data.orders.medication_orders.values, ...data.orders.medication_orders.partial_values] : [];
  const check = (s: { section: string; loinc?: string; text: string; claimed: string[]; facts?: Fact[]; marked?: boolean }): SentenceResult => {
    const claimed = new Set(s.claimed.filter((id) => known.has(id)));
    // A line of the Allergies section ("Penicillin causes rash.") is an allergy statement: its drug is the
    // allergen and its symptom the reaction, as if it began "allergic to".
    const inAllergies = (s.loinc ? s.loinc === ALLERGIES : /\ballerg/i.test(s.section)) && !/\ballerg/i.test(s.text);
    const facts = s.facts ?? extractFacts(inAllergies ? `allergic to ${s.text}` : s.text);
    const results = facts.map((f) => {
      const r = supportFact(f, entries, claimed);
      return contradictsOrder(f, facts, { loinc: s.loinc, title: s.section }, orders) ? { ...r, supported: false, reason: 'contradicts-coded-order' as const } : r;
    });
    const evidence = [...new Set([...results.flatMap((r) => r.evidence), ...overlapEvidence(s.text, entries, claimed)])];
    const wrongPlace = misfiled({ loinc: s.loinc, title: s.section }, results);
    // The fixed wording, unless the engine flags its template sentences and says this one was written from the
    // visit (an agreement line the patient's words support is not template text).
    const template = s.marked === false ? undefined : templateKind(s.text) ?? templateKind(s.text.replace(LABEL, ''));
    return {
      section: s.section,
      ...(s.loinc ? { loinc: s.loinc } : {}),
      text: s.text,
      ...(template ? { template } : {}),
      facts: results,
      claimedEvidence: s.claimed,
      verifiedEvidence: s.claimed.filter((id) => evidence.includes(id)),
      evidence,
      noEvidence: evidence.length === 0,
      flags: speechFlags(s.text),
      ...(wrongPlace ? { misfiled: wrongPlace } : {}),
    };
  };
  const sentences = noteSentences(note).map(check);
  const coded = data ? codedSentences(data).map(check) : [];
  const unsupported = [...sentences, ...coded].flatMap((sentence) => sentence.facts.filter((r) => !r.supported).map((result) => ({ sentence, result })));
  return { sentences, coded, unsupported };
}
