import type { Evidence, StructuredData, SummarySection } from '@/lib/contracts/sessions';

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

/**
 * The coded diagnoses and medication orders as items with evidence, so they can be chosen like sentences
 * (keys `dx:<i>` and `rx:<i>`, orders numbered across values then partial values, as the panel lists them).
 */
export function codedEvidence(data: StructuredData): EvidenceSentence[] {
  const dx = data.diagnoses.values.map((d, i) => {
    const icd = d.codes.find((c) => c.type !== 'HCC') ?? d.codes[0];
    return { key: `dx:${i}`, loinc: '', section: 'Diagnoses', text: icd ? `${icd.code} ${icd.description}` : d.diagnosis_note, template: false, evidence: d.evidence ?? null };
  });
  const rx = [...data.orders.medication_orders.values, ...data.orders.medication_orders.partial_values].map((o, i) => ({
    key: `rx:${i}`,
    loinc: '',
    section: 'Medications',
    text: [o.drug_name, o.dosage.raw_value].filter(Boolean).join(' '),
    template: false,
    evidence: o.evidence ?? null,
  }));
  return [...dx, ...rx];
}
