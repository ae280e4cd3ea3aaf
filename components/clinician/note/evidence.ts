import type { Evidence, SummarySection } from '@/lib/contracts/sessions';

/** One generated note sentence with where it came from, as the visit page shows it. */
export interface EvidenceSentence {
  /** Section and position: unique on the page and stable while the note is shown. */
  key: string;
  loinc: string;
  section: string;
  text: string;
  template: boolean;
  evidence: Evidence | null;
}

/**
 * The note's sentences with their evidence, section by section. A section the clinician edited has no
 * sentence list any more (its provenance no longer describes the text), so it adds none.
 */
export function evidenceSentences(summary: SummarySection[]): EvidenceSentence[] {
  return summary.flatMap((s) =>
    (s.sentences ?? [])
      .map((x, i) => ({ key: `${s.loinc_code}:${i}`, loinc: s.loinc_code, section: s.title, text: x.text, template: x.template === true, evidence: x.evidence ?? null }))
      .filter((x) => x.text.trim()),
  );
}

/** The sentences that cite a transcript line, in note order. */
export function sentencesUsing(sentences: EvidenceSentence[], transcriptId: string): EvidenceSentence[] {
  return sentences.filter((s) => s.evidence?.transcript_ids.includes(transcriptId));
}
