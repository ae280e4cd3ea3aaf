import { ORDERABLES, type Orderable } from './code-tables';

export interface OrderableLookup {
  find(loinc: string): Orderable | undefined;
}

/** The curated lab and imaging orderables, by LOINC code. */
export function orderableLookup(): OrderableLookup {
  const byCode = new Map(ORDERABLES.map((o) => [o.code, o]));
  return { find: (loinc) => byCode.get(loinc.trim()) };
}
