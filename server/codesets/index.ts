import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CODESET_FILES,
  parseHccLabelsCsv,
  parseHccMapCsv,
  parseIcd10CodesFile,
  parseRxnormCsv,
  type HccLabelRow,
  type HccMapRow,
  type Icd10Row,
  type RxnormRow,
} from './parsers';
import { BUILTIN_ICD10 } from './builtin/icd10.generated';
import { BUILTIN_HCC_LABELS } from './builtin/hcc-labels.generated';
import { BUILTIN_RXNORM } from './builtin/rxnorm.generated';

export type HccModel = 'V28' | 'V24';

export interface RxConcept { rxcui: string; name: string; tty: string }

/** Read-only code lookups used by the notes engines; both the built-in set and the official files implement it. */
export interface CodeIndex {
  readonly source: 'builtin' | 'official';
  icd10(code: string): { code: string; description: string } | undefined;
  /** CMS-HCC payment category for an ICD-10-CM code, as "HCC38" with its label. */
  hcc(icd10: string, model?: HccModel): { code: string; label: string } | undefined;
  /** IN, PIN or MIN by exact (case-insensitive) name. */
  rxByName(name: string): RxConcept | undefined;
  /** SCDs whose name starts with the ingredient (any salt), e.g. "metformin" → "metformin hydrochloride 500 MG Oral Tablet". */
  rxClinicalDrugs(ingredient: string): RxConcept[];
  /** The concept with this RXCUI, if the set has it. */
  rxByCui(rxcui: string): RxConcept | undefined;
  /** Up to `limit` codes for a clinician's search box: the code itself, or every word in the description. */
  searchIcd10(query: string, limit: number): { code: string; description: string }[];
  /** Up to `limit` concepts of the given term types whose name has every word of the query, shortest names first. */
  searchRx(query: string, limit: number, ttys: readonly string[]): RxConcept[];
  readonly counts: { icd10: number; hccMap: number; rxnorm: number };
}

/** ICD-10-CM codes are stored without the dot; clinicians and APIs write them with one after the category. */
export function formatIcd10(code: string): string {
  const c = code.replace('.', '').toUpperCase();
  return c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c;
}
const bare = (code: string) => code.replace('.', '').trim().toUpperCase();

export interface CodesetData {
  icd10: Icd10Row[];
  hccMap: HccMapRow[];
  hccLabels: HccLabelRow[];
  rxnorm: RxnormRow[];
}

export function buildCodeIndex(data: CodesetData, source: CodeIndex['source']): CodeIndex {
  const icd = new Map(data.icd10.map((r) => [bare(r.code), r.description]));
  const hccMap = new Map<string, string>();
  for (const r of data.hccMap) if (r.model === 'V28' || r.model === 'V24') hccMap.set(`${r.model}|${bare(r.icd10)}`, r.cc);
  const labels = new Map<string, string>();
  for (const r of data.hccLabels) labels.set(`${r.model}|${r.cc}`, r.label);
  const rxName = new Map<string, RxConcept>();
  const rxCui = new Map<string, RxConcept>();
  const scdByFirstWord = new Map<string, RxConcept[]>();
  for (const r of data.rxnorm) {
    const c: RxConcept = { rxcui: r.rxcui, name: r.name, tty: r.tty };
    rxCui.set(r.rxcui, c);
    if (r.tty === 'SCD') {
      const first = r.name.toLowerCase().split(/\s+/)[0];
      (scdByFirstWord.get(first) ?? scdByFirstWord.set(first, []).get(first)!).push(c);
    } else {
      const key = r.name.toLowerCase();
      // IN wins over PIN when names collide, since orders are coded at ingredient level.
      if (!rxName.has(key) || r.tty === 'IN') rxName.set(key, c);
    }
  }
  return {
    source,
    counts: { icd10: icd.size, hccMap: hccMap.size, rxnorm: data.rxnorm.length },
    icd10(code) {
      const d = icd.get(bare(code));
      return d === undefined ? undefined : { code: formatIcd10(code), description: d };
    },
    hcc(code, model = 'V28') {
      const cc = hccMap.get(`${model}|${bare(code)}`);
      if (!cc) return undefined;
      return { code: `HCC${cc}`, label: labels.get(`${model}|${cc}`) ?? `HCC${cc}` };
    },
    rxByName(name) {
      return rxName.get(name.toLowerCase().trim());
    },
    rxClinicalDrugs(ingredient) {
      const ing = ingredient.toLowerCase().trim();
      const list = scdByFirstWord.get(ing.split(/\s+/)[0]) ?? [];
      return list.filter((c) => {
        const n = c.name.toLowerCase();
        return n.startsWith(ing + ' ') && !n.includes(' / ');
      });
    },
    rxByCui(rxcui) {
      return rxCui.get(rxcui.trim());
    },
    searchIcd10(query, limit) {
      const words = searchWords(query);
      if (words.length === 0) return [];
      const asCode = bare(query);
      const byCode: { code: string; description: string }[] = [];
      const byWords: { code: string; description: string }[] = [];
      for (const [code, description] of icd) {
        if (code.startsWith(asCode)) byCode.push({ code: formatIcd10(code), description });
        else if (hasWords(description, words)) byWords.push({ code: formatIcd10(code), description });
      }
      // Broader codes first (I10 before I11.0), then shorter descriptions.
      byWords.sort((a, b) => a.code.length - b.code.length || a.description.length - b.description.length || a.code.localeCompare(b.code));
      byCode.sort((a, b) => a.code.length - b.code.length || a.code.localeCompare(b.code));
      return [...byCode, ...byWords].slice(0, limit);
    },
    searchRx(query, limit, ttys) {
      const words = searchWords(query);
      if (words.length === 0) return [];
      const found = [...rxCui.values()].filter((c) => ttys.includes(c.tty) && hasWords(c.name, words));
      const first = words[0]!;
      const rank = (c: RxConcept) => (c.name.toLowerCase().startsWith(first) ? 0 : 1);
      found.sort((a, b) => rank(a) - rank(b) || a.name.length - b.name.length || a.name.localeCompare(b.name));
      return found.slice(0, limit);
    },
  };
}

function searchWords(query: string): string[] {
  return query.toLowerCase().split(/[^a-z0-9.]+/).filter((w) => w.length > 0);
}

function hasWords(text: string, words: string[]): boolean {
  const t = text.toLowerCase();
  return words.every((w) => t.includes(w));
}

let builtin: CodeIndex | undefined;
export function builtinCodeIndex(): CodeIndex {
  if (builtin) return builtin;
  const hccMap: HccMapRow[] = [];
  for (const r of BUILTIN_ICD10) {
    if (r.v28) hccMap.push({ icd10: r.code, cc: r.v28, model: 'V28', modelName: 'CMS-HCC Model V28' });
    if (r.v24) hccMap.push({ icd10: r.code, cc: r.v24, model: 'V24', modelName: 'CMS-HCC Model V24' });
  }
  const hccLabels: HccLabelRow[] = [];
  for (const model of ['V28', 'V24'] as const)
    for (const [cc, label] of Object.entries(BUILTIN_HCC_LABELS[model])) hccLabels.push({ model, cc, label, labelFile: '' });
  builtin = buildCodeIndex(
    {
      icd10: BUILTIN_ICD10.map((r) => ({ code: r.code, description: r.description })),
      hccMap,
      hccLabels,
      rxnorm: BUILTIN_RXNORM.map((r) => ({ ...r, doseForm: null })),
    },
    'builtin',
  );
  return builtin;
}

function findFile(dir: string, pattern: RegExp): string | undefined {
  const name = readdirSync(dir).filter((f) => pattern.test(f)).sort().at(-1);
  return name ? path.join(dir, name) : undefined;
}

/** Reads the official release files from a directory; missing files leave that part empty. */
export function readCodesetDir(dir: string): CodesetData {
  const read = (p: RegExp) => {
    const f = findFile(dir, p);
    return f ? readFileSync(f, 'latin1') : '';
  };
  const rxFile = findFile(dir, CODESET_FILES.rxnorm);
  // The CMS label-file extract keeps the apostrophes the mimilabs CSV strips; prefer it when present.
  const labelsCms = read(CODESET_FILES.hccLabelsCms);
  return {
    icd10: parseIcd10CodesFile(read(CODESET_FILES.icd10)),
    hccMap: parseHccMapCsv(read(CODESET_FILES.hccMap)),
    hccLabels: labelsCms ? parseHccLabelsCsv(labelsCms) : parseHccLabelsCsv(read(CODESET_FILES.hccLabels)),
    rxnorm: rxFile ? parseRxnormCsv(readFileSync(rxFile, 'utf8')) : [],
  };
}

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The configured directory (Config.codesetsDir, relative to the project), else ../shared/data/codesets beside the project when it exists. */
export function resolveCodesetsDir(configured?: string): string | undefined {
  if (configured) return path.resolve(PROJECT_ROOT, configured);
  const fallback = path.resolve(PROJECT_ROOT, '../shared/data/codesets');
  return existsSync(fallback) ? fallback : undefined;
}

const official = new Map<string, CodeIndex>();
export function officialCodeIndex(dir: string): CodeIndex {
  let idx = official.get(dir);
  if (!idx) {
    idx = buildCodeIndex(readCodesetDir(dir), 'official');
    official.set(dir, idx);
  }
  return idx;
}

/**
 * The index engines use by default: the official files when a code-set directory is configured or
 * present, the built-in set otherwise (or when the directory lacks an ICD-10-CM file).
 */
export function defaultCodeIndex(codesetsDir?: string): CodeIndex {
  const dir = resolveCodesetsDir(codesetsDir);
  if (dir && existsSync(dir)) {
    const idx = officialCodeIndex(dir);
    if (idx.counts.icd10 > 0) return idx;
  }
  return builtinCodeIndex();
}
