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
  return fileCodeIndex(codesetsDir);
}

function fileCodeIndex(codesetsDir?: string): { index: CodeIndex; from: 'files' | 'builtin' } {
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

/**
 * A code index read from files when first used. Parsing the release files costs about a CPU-second, and
 * most processes never code anything (the admin CLI, a web process whose notes are written by workers,
 * every test server that checks auth or input): they no longer pay it at start. Imported tables are read
 * at start as before, since reading them is asynchronous and the index's lookups are not.
 */
function lazyFileIndex(codesetsDir: string | undefined, onLoad: (from: string, index: CodeIndex) => void): CodeIndex {
  let loaded: CodeIndex | undefined;
  const get = (): CodeIndex => {
    if (!loaded) {
      const { index, from } = fileCodeIndex(codesetsDir);
      loaded = index;
      onLoad(from, index);
    }
    return loaded;
  };
  return {
    get source() {
      return get().source;
    },
    get counts() {
      return get().counts;
    },
    icd10: (code) => get().icd10(code),
    hcc: (icd10, model) => get().hcc(icd10, model),
    rxByName: (name) => get().rxByName(name),
    rxClinicalDrugs: (ingredient) => get().rxClinicalDrugs(ingredient),
    rxByCui: (rxcui) => get().rxByCui(rxcui),
    searchIcd10: (query, limit) => get().searchIcd10(query, limit),
    searchRx: (query, limit, ttys) => get().searchRx(query, limit, ttys),
  };
}

/** The index the server's engines use (server/services.ts): imported tables read at start, files on first use. */
export async function loadCodeIndex(app: Pick<AppContext, 'db' | 'config' | 'log'>): Promise<CodeIndex> {
  const logLoaded = (from: string, index: CodeIndex) =>
    app.log.info({ from, icd10: index.counts.icd10, hccMap: index.counts.hccMap, rxnorm: index.counts.rxnorm }, 'code sets loaded');
  const fromDb = await loadCodeIndexFromDb(systemDb(app, 'code sets: service-wide reference tables, no tenant') as unknown as AnyDb);
  if (fromDb) {
    logLoaded('database', fromDb);
    return fromDb;
  }
  return lazyFileIndex(app.config.codesetsDir, logLoaded);
}
