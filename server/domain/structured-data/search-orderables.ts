import type { CodeSearchQuery, OrderableSearchResponse } from '@/lib/contracts/structured-data-edits';
import { matchesWords, ORDERABLES } from './code-tables';

/** The curated lab and imaging orderables whose name or a spoken alias ("bmp") has every word of the query, or whose LOINC code starts with it. */
export function searchOrderables(query: CodeSearchQuery): OrderableSearchResponse {
  const results = ORDERABLES.filter((o) => o.code.startsWith(query.q) || matchesWords(query.q, [o.display, ...o.aliases]))
    .slice(0, query.limit ?? 10)
    .map(({ code, display, category }) => ({ code, display, category }));
  return { results };
}
