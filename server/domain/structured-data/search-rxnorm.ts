import type { CodeSearchQuery, RxNormSearchResponse } from '@/lib/contracts/structured-data-edits';
import type { AppContext } from '../../context';

/** RxNorm ingredients first, then clinical drugs, for the medication search box. */
export function searchRxNorm(app: Pick<AppContext, 'services'>, query: CodeSearchQuery): RxNormSearchResponse {
  const limit = query.limit ?? 10;
  const codes = app.services.codes;
  const ingredients = codes.searchRx(query.q, limit, ['IN', 'PIN', 'MIN']);
  const drugs = ingredients.length < limit ? codes.searchRx(query.q, limit - ingredients.length, ['SCD']) : [];
  return { results: [...ingredients, ...drugs].map(({ rxcui, name, tty }) => ({ rxcui, name, tty })) };
}
