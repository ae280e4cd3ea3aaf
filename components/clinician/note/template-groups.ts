import type { SummarySection } from '@/lib/contracts/sessions';

type Sentence = NonNullable<SummarySection['sentences']>[number];

/**
 * A section's template sentences in two groups: fixed wording nothing in the visit said ("Return precautions
 * given.", the pre-visit note), and the template's wording around something the visit did say ("The patient will
 * follow up with me in 3 months.", its interval from a transcript line). Only the first is "not from the visit".
 */
export function templateGroups(sentences: SummarySection['sentences']): { fixed: Sentence[]; filled: Sentence[] } {
  const template = (sentences ?? []).filter((s) => s.template && s.text.trim());
  return {
    fixed: template.filter((s) => !(s.source_transcripts ?? []).length),
    filled: template.filter((s) => (s.source_transcripts ?? []).length > 0),
  };
}
