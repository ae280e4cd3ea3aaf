import { inArray, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { AppContext } from '../context';
import { systemDb } from '../db';
import { buildCodeIndex, builtinCodeIndex, officialCodeIndex, resolveCodesetsDir, type CodeIndex } from './index';
import { codeHccLabel, codeHccMap, codeIcd10, codeRxnorm } from './schema';

type AnyDb = PgDatabase<PgQueryResultHKT, any, any>;

/**
 * The imported tables as an in-memory index, or undefined when nothing was imported. Lookups run once
 * per diagnosis while a note is written, so the tables are read once rather than queried per code.
 */
export async function loadCodeIndexFromDb(db: AnyDb): Promise<CodeIndex | undefined> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(codeIcd10);
  if (!n) return undefined;
  const [icd10, hccMap, hccLabels, rxnorm] = await Promise.all([
    db.select({ code: codeIcd10.code, description: codeIcd10.description }).from(codeIcd10),
    db
      .select({ icd10: codeHccMap.icd10Code, cc: codeHccMap.cc, model: codeHccMap.model, modelName: codeHccMap.modelName })
      .from(codeHccMap)
      .where(inArray(codeHccMap.model, ['V28', 'V24'])),
    db.select().from(codeHccLabel),
    db.select().from(codeRxnorm),
  ]);
  return buildCodeIndex({ icd10, hccMap, hccLabels, rxnorm }, 'official');
}

/** Imported tables first, then the configured code-set directory (or ../shared/data/codesets), then the built-in set. */
export async function resolveCodeIndex(db: AnyDb | undefined, codesetsDir?: string): Promise<{ index: CodeIndex; from: 'database' | 'files' | 'builtin' }> {
  const fromDb = db ? await loadCodeIndexFromDb(db) : undefined;
  if (fromDb) return { index: fromDb, from: 'database' };
  const dir = resolveCodesetsDir(codesetsDir);
  if (dir) {
    try {
      const idx = officialCodeIndex(dir);
      if (idx.counts.icd10 > 0) return { index: idx, from: 'files' };
    } catch {
      // An unreadable directory is an operator problem; the built-in set keeps notes coded meanwhile.
    }
  }
  return { index: builtinCodeIndex(), from: 'builtin' };
}

/** The index the server's engines use, read once at start (server/services.ts). */
export async function loadCodeIndex(app: Pick<AppContext, 'db' | 'config' | 'log'>): Promise<CodeIndex> {
  const { index, from } = await resolveCodeIndex(systemDb(app, 'code sets: service-wide reference tables, no tenant') as unknown as AnyDb, app.config.codesetsDir);
  app.log.info({ from, icd10: index.counts.icd10, hccMap: index.counts.hccMap, rxnorm: index.counts.rxnorm }, 'code sets loaded');
  return index;
}
