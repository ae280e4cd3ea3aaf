import type { CodeSearchQuery, OrderableSearchResponse } from '@/lib/contracts/structured-data-edits';
import { ORDERABLES } from './code-tables';

/** The curated lab and imaging orderables whose name has every word of the query, or whose LOINC code starts with it. */
export function searchOrderables(query: CodeSearchQuery): OrderableSearchResponse {
  const q = query.q.toLowerCase();
  const words = q.split(/\s+/).filter(Boolean);
  const results = ORDERABLES.filter((o) => o.code.startsWith(q) || words.every((w) => o.display.toLowerCase().includes(w)))
    .slice(0, query.limit ?? 10)
    .map(({ code, display, category }) => ({ code, display, category }));
  return { results };
}
