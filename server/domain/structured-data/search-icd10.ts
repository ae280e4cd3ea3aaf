import type { CodeSearchQuery, Icd10SearchResponse } from '@/lib/contracts/structured-data-edits';
import type { AppContext } from '../../context';

/** ICD-10-CM codes for the diagnosis search box. */
export function searchIcd10(app: Pick<AppContext, 'services'>, query: CodeSearchQuery): Icd10SearchResponse {
  return { results: app.services.codes.searchIcd10(query.q, query.limit ?? 10) };
}
