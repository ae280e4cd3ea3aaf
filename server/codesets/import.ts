import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { readCodesetDir, type CodesetData } from './index';
import { codeHccLabel, codeHccMap, codeIcd10, codeRxnorm } from './schema';

export interface ImportSummary { icd10: number; hccMap: number; hccLabels: number; rxnorm: number }

const CHUNK = 1000;
async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * Replaces the imported code sets with the files found in `dir` (official release names, see
 * parsers.ts). A table whose file is absent keeps its rows, so an operator can update one code set.
 */
export async function importCodesets(
  db: PgDatabase<PgQueryResultHKT, any, any>,
  dir: string,
  data: CodesetData = readCodesetDir(dir),
): Promise<ImportSummary> {
  const labelsByKey = new Map(data.hccLabels.map((l) => [`${l.model}|${l.cc}`, l]));
  const mapByKey = new Map(data.hccMap.map((m) => [`${m.icd10}|${m.model}|${m.cc}`, m]));
  await db.transaction(async (tx) => {
    if (data.icd10.length) {
      await tx.delete(codeIcd10);
      await insertChunks(data.icd10, (c) => tx.insert(codeIcd10).values(c.map((r) => ({ code: r.code, description: r.description }))));
    }
    if (mapByKey.size) {
      await tx.delete(codeHccMap);
      await insertChunks([...mapByKey.values()], (c) =>
        tx.insert(codeHccMap).values(c.map((r) => ({ icd10Code: r.icd10, model: r.model, modelName: r.modelName, cc: r.cc }))),
      );
    }
    if (labelsByKey.size) {
      await tx.delete(codeHccLabel);
      await insertChunks([...labelsByKey.values()], (c) => tx.insert(codeHccLabel).values(c));
    }
    if (data.rxnorm.length) {
      await tx.delete(codeRxnorm);
      const unique = [...new Map(data.rxnorm.map((r) => [r.rxcui, r])).values()];
      await insertChunks(unique, (c) => tx.insert(codeRxnorm).values(c));
    }
  });
  return { icd10: data.icd10.length, hccMap: mapByKey.size, hccLabels: labelsByKey.size, rxnorm: data.rxnorm.length };
}
