import type { AllergySubstanceSearchResponse, CodeSearchQuery } from '@/lib/contracts/structured-data-edits';
import type { AppContext } from '../../context';
import { DRUG_CLASSES, matchesWords } from './code-tables';

/** Drug classes ("penicillins", "sulfa") first, since allergies are often to a class, then RxNorm ingredients. */
export function searchAllergySubstances(app: Pick<AppContext, 'services'>, query: CodeSearchQuery): AllergySubstanceSearchResponse {
  const limit = query.limit ?? 10;
  const classes = DRUG_CLASSES.filter((c) => matchesWords(query.q, [c.display, ...c.aliases]))
    .slice(0, limit)
    .map((c) => ({ code: c.code, type: 'DRUG_CLASS' as const, display: c.display }));
  const ingredients = app.services.codes
    .searchRx(query.q, limit - classes.length, ['IN'])
    .map((c) => ({ code: c.rxcui, type: 'RXCUI' as const, display: c.name }));
  return { results: [...classes, ...ingredients] };
}
