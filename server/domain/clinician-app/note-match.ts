import type { SessionListItem } from '@/lib/contracts/clinician';

const AROUND = 60;

type Section = { title?: unknown; content?: unknown; loinc_code?: unknown };

/**
 * The first note section whose content contains `q` (case-insensitive), with up to AROUND characters
 * either side, cut at word boundaries, so the list can show why a visit matched.
 */
export function noteMatch(summary: unknown, q: string): SessionListItem['note_match'] {
  if (!Array.isArray(summary)) return null;
  const needle = q.toLowerCase();
  for (const s of summary as Section[]) {
    if (typeof s?.content !== 'string') continue;
    const at = s.content.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    let start = Math.max(0, at - AROUND);
    let end = Math.min(s.content.length, at + q.length + AROUND);
    if (start > 0) start = s.content.indexOf(' ', start) + 1 || start;
    if (end < s.content.length) end = s.content.lastIndexOf(' ', end) > at + q.length ? s.content.lastIndexOf(' ', end) : end;
    const snippet = `${start > 0 ? '… ' : ''}${s.content.slice(start, end).replace(/\s+/g, ' ').trim()}${end < s.content.length ? ' …' : ''}`;
    return { section: typeof s.title === 'string' ? s.title : '', loinc_code: typeof s.loinc_code === 'string' ? s.loinc_code : '', snippet };
  }
  return null;
}
