/**
 * Parsers for the official code-set release formats. They take file text rather than paths so the same
 * code serves the in-memory index, the database importer and tests.
 */

export interface Icd10Row { code: string; description: string }
export interface HccMapRow { icd10: string; cc: string; modelName: string; model: string }
export interface HccLabelRow { model: string; cc: string; label: string; labelFile: string }
export interface RxnormRow { rxcui: string; name: string; tty: string; doseForm: string | null }

/** ICD-10-CM "codes file": code left-justified in 8 columns, then the long description; CRLF endings. */
export function parseIcd10CodesFile(text: string): Icd10Row[] {
  const rows: Icd10Row[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+$/, '');
    if (!line) continue;
    // The column layout is the official format; fall back to whitespace splitting for hand-edited files.
    const code = line.slice(0, 8).trim();
    const description = line.length > 8 ? line.slice(8).trim() : '';
    if (!/^[A-Z][0-9A-Z]{2,6}$/.test(code) || !description) {
      const m = /^([A-Z][0-9A-Z]{2,6})\s+(.+)$/.exec(line);
      if (m) rows.push({ code: m[1], description: m[2].trim() });
      continue;
    }
    rows.push({ code, description });
  }
  return rows;
}

/** RFC 4180 CSV, enough for the CMS and RxNav extracts (quoted fields with commas and doubled quotes). */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else inQuotes = false;
      } else field += ch;
      continue;
    }
    if (ch === '"') inQuotes = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      if (row.length > 1 || row[0] !== '') out.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length) { row.push(field); out.push(row); }
  return out;
}

function csvObjects(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const keys = header.map((h) => h.trim().replace(/^\uFEFF/, ''));
  return rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, (r[i] ?? '').trim()])));
}

/** "CMS-HCC Model V28" → "V28"; other model families keep a prefix so they never collide with CMS-HCC. */
export function modelKey(modelName: string): string {
  const v = /V\d+/.exec(modelName)?.[0] ?? modelName;
  if (/ESRD/i.test(modelName)) return `ESRD-${v}`;
  if (/RxHCC/i.test(modelName)) return `RX-${v}`;
  return v;
}

/** hcc_ra_dx_to_cc_2026.csv: diagnosis_code,cc,model_name. */
export function parseHccMapCsv(text: string): HccMapRow[] {
  return csvObjects(text)
    .filter((r) => r.diagnosis_code && r.cc)
    .map((r) => ({ icd10: r.diagnosis_code.toUpperCase(), cc: r.cc, modelName: r.model_name, model: modelKey(r.model_name) }));
}

/** The CMS software format (e.g. F2824T1N.TXT): code TAB cc, no header. */
export function parseCmsFormatFile(text: string, model: string): HccMapRow[] {
  const rows: HccMapRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [code, cc] = line.split(/\t|\s+/).filter(Boolean);
    if (code && cc && /^\d+$/.test(cc)) rows.push({ icd10: code.toUpperCase(), cc, modelName: `CMS-HCC Model ${model}`, model });
  }
  return rows;
}

/**
 * Labels: either hcc_ra_labels_2026.csv (cc,label,model_domain,model_version,model_fullname) or the
 * CMS label-file extract (model,category,number,label,cms_label_file). Only HCC rows of the CMS-HCC
 * domain are kept; the CC labels of the extract are dropped because structured data reports HCCs.
 */
export function parseHccLabelsCsv(text: string): HccLabelRow[] {
  const objs = csvObjects(text);
  if (!objs.length) return [];
  if ('category' in objs[0]) {
    return objs
      .filter((r) => /^HCC\d+$/.test(r.category))
      .map((r) => ({ model: r.model, cc: r.category.replace(/^HCC/, ''), label: r.label, labelFile: r.cms_label_file }));
  }
  return objs
    .filter((r) => r.model_domain === 'CMS-HCC' && /^HCC\d+$/.test(r.cc))
    .map((r) => ({ model: r.model_version, cc: r.cc.replace(/^HCC/, ''), label: r.label, labelFile: r.model_fullname }));
}

/** RxNav allconcepts extract: rxcui,name,tty,dose_form_parsed. */
export function parseRxnormCsv(text: string): RxnormRow[] {
  return csvObjects(text)
    .filter((r) => r.rxcui && r.name)
    .map((r) => ({ rxcui: r.rxcui, name: r.name, tty: r.tty, doseForm: r.dose_form_parsed || null }));
}

/** Files an operator drops into CODESETS_DIR, by the names CMS and the extracts use. */
export const CODESET_FILES = {
  icd10: /^icd10cm[-_]codes[-_]?\d{4}\.txt$/i,
  hccMap: /^hcc_ra_dx_to_cc_\d{4}\.csv$/i,
  hccLabelsCms: /^hcc_labels_cms_.*\.csv$/i,
  hccLabels: /^hcc_ra_labels_\d{4}\.csv$/i,
  rxnorm: /^rxnorm.*\.csv$/i,
} as const;
