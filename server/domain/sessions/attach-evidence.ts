import type { ContentResponse, Evidence } from '@/lib/contracts/sessions';

export interface EntryTimes {
  id: string;
  startMs: number;
  endMs: number;
}

/**
 * The evidence of one sentence, diagnosis or order: the cited entries that exist, in the order spoken, and
 * the audio they span. Ids of entries that are gone (a live transcript replaced by the final pass) or of
 * session context are no evidence of what was said, so they do not count.
 */
export function evidenceOf(ids: readonly string[] | undefined, byId: ReadonlyMap<string, EntryTimes>): Evidence | null {
  const found = [...new Set(ids ?? [])].map((id) => byId.get(id)).filter((e): e is EntryTimes => !!e);
  if (found.length === 0) return null;
  found.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  return {
    transcript_ids: found.map((e) => e.id),
    start_ms: Math.min(...found.map((e) => e.startMs)),
    end_ms: Math.max(...found.map((e) => e.endMs)),
  };
}

/**
 * Adds `evidence` to every note sentence, diagnosis, medication or service order and allergy from the transcript entries each
 * cites, computed on read so notes stored before issue 27 get it too and an edit cannot leave it stale.
 */
export function attachEvidence(content: ContentResponse, entries: readonly EntryTimes[]): ContentResponse {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const mo = content.structured_data.orders.medication_orders;
  const order = <T extends { source_transcripts?: string[] }>(o: T) => ({ ...o, evidence: evidenceOf(o.source_transcripts, byId) });
  return {
    ...content,
    summary: content.summary.map((s) =>
      s.sentences ? { ...s, sentences: s.sentences.map((x) => ({ ...x, evidence: evidenceOf(x.source_transcripts, byId) })) } : s,
    ),
    structured_data: {
      ...content.structured_data,
      diagnoses: { values: content.structured_data.diagnoses.values.map(order) },
      orders: {
        ...content.structured_data.orders,
        medication_orders: { values: mo.values.map(order), partial_values: mo.partial_values.map(order) },
        service_orders: { values: (content.structured_data.orders.service_orders?.values ?? []).map(order) },
      },
      allergies: { values: (content.structured_data.allergies?.values ?? []).map(order) },
    },
  };
}
