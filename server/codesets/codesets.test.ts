import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { parseCsv, parseHccLabelsCsv, parseHccMapCsv, parseIcd10CodesFile, parseRxnormCsv } from './parsers';
import { buildCodeIndex, builtinCodeIndex, formatIcd10, readCodesetDir } from './index';
import { importCodesets } from './import';
import { codeHccMap, codeIcd10, codeRxnorm } from './schema';

const ICD = 'A000    Cholera due to Vibrio cholerae 01, biovar cholerae\r\nE119    Type 2 diabetes mellitus without complications\r\nI10     Essential (primary) hypertension\r\n';
const MAP = 'diagnosis_code,cc,model_name\nE119,38,CMS-HCC Model V28\nE119,19,CMS-HCC Model V24\nE119,31,RxHCC Model V08\n';
const LABELS = 'model,category,number,label,cms_label_file\nV28,HCC38,38,"Diabetes with Glycemic, Unspecified, or No Complications",V28115L3\nV28,CC38,38,x,V28115L3\nV24,HCC19,19,Diabetes without Complication,V24H86L1\n';
const RX = 'rxcui,name,tty,dose_form_parsed\n6809,metformin,IN,\n235743,metformin hydrochloride,PIN,\n861007,metformin hydrochloride 500 MG Oral Tablet,SCD,Oral Tablet\n';

describe('official format parsers', () => {
  it('reads the fixed-width ICD-10-CM codes file with CRLF endings', () => {
    expect(parseIcd10CodesFile(ICD)).toEqual([
      { code: 'A000', description: 'Cholera due to Vibrio cholerae 01, biovar cholerae' },
      { code: 'E119', description: 'Type 2 diabetes mellitus without complications' },
      { code: 'I10', description: 'Essential (primary) hypertension' },
    ]);
  });
  it('parses quoted CSV fields', () => {
    expect(parseCsv('a,b\n"x, ""y""",z\n')).toEqual([['a', 'b'], ['x, "y"', 'z']]);
  });
  it('keys HCC rows by model and keeps only HCC labels', () => {
    expect(parseHccMapCsv(MAP).map((r) => r.model)).toEqual(['V28', 'V24', 'RX-V08']);
    expect(parseHccLabelsCsv(LABELS)).toEqual([
      { model: 'V28', cc: '38', label: 'Diabetes with Glycemic, Unspecified, or No Complications', labelFile: 'V28115L3' },
      { model: 'V24', cc: '19', label: 'Diabetes without Complication', labelFile: 'V24H86L1' },
    ]);
  });
  it('builds an index answering ICD, HCC V28/V24 and RxNorm lookups', () => {
    const idx = buildCodeIndex(
      { icd10: parseIcd10CodesFile(ICD), hccMap: parseHccMapCsv(MAP), hccLabels: parseHccLabelsCsv(LABELS), rxnorm: parseRxnormCsv(RX) },
      'official',
    );
    expect(idx.icd10('E11.9')).toEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect(idx.hcc('E11.9')).toEqual({ code: 'HCC38', label: 'Diabetes with Glycemic, Unspecified, or No Complications' });
    expect(idx.hcc('E119', 'V24')?.code).toBe('HCC19');
    expect(idx.hcc('I10')).toBeUndefined();
    expect(idx.rxByName('Metformin')?.rxcui).toBe('6809');
    expect(idx.rxClinicalDrugs('metformin').map((c) => c.rxcui)).toEqual(['861007']);
    expect(formatIcd10('S83511A')).toBe('S83.511A');
  });
});

describe('built-in code set', () => {
  it('covers common primary-care conditions with HCCs', () => {
    const idx = builtinCodeIndex();
    expect(idx.counts.icd10).toBeGreaterThan(300);
    expect(idx.hcc('E11.9', 'V28')).toEqual({ code: 'HCC38', label: 'Diabetes with Glycemic, Unspecified, or No Complications' });
    expect(idx.hcc('I50.9', 'V28')?.code).toBe('HCC226');
    expect(idx.hcc('E11.9', 'V24')?.code).toBe('HCC19');
    expect(idx.rxByName('metformin')?.rxcui).toBe('6809');
    expect(idx.rxByName('lisinopril')?.rxcui).toBe('29046');
  });

  // The official files sit beside the project (../shared/data/codesets), where CI runs too: no skip.
  const dir = path.resolve(import.meta.dirname, '../../../shared/data/codesets');
  it('matches the official files code for code', async () => {
    const official = buildCodeIndex(readCodesetDir(dir), 'official');
    const { BUILTIN_ICD10 } = await import('./builtin/icd10.generated');
    const { BUILTIN_HCC_LABELS } = await import('./builtin/hcc-labels.generated');
    const { BUILTIN_RXNORM } = await import('./builtin/rxnorm.generated');
    for (const r of BUILTIN_ICD10) {
      expect(official.icd10(r.code)?.description, r.code).toBe(r.description);
      expect(official.hcc(r.code, 'V28')?.code, `${r.code} V28`).toBe(r.v28 ? `HCC${r.v28}` : undefined);
      expect(official.hcc(r.code, 'V24')?.code, `${r.code} V24`).toBe(r.v24 ? `HCC${r.v24}` : undefined);
    }
    for (const model of ['V28', 'V24'] as const)
      for (const [cc, label] of Object.entries(BUILTIN_HCC_LABELS[model]))
        expect(official.hcc(BUILTIN_ICD10.find((r) => (model === 'V28' ? r.v28 : r.v24) === cc)!.code, model)?.label).toBe(label);
    const rx = new Map(readCodesetDir(dir).rxnorm.map((r) => [r.rxcui, r]));
    for (const r of BUILTIN_RXNORM) expect(rx.get(r.rxcui), r.rxcui).toMatchObject({ name: r.name, tty: r.tty });
  });
});

describe('importCodesets', () => {
  it('loads the official formats into the code tables', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'codesets-'));
    writeFileSync(path.join(tmp, 'icd10cm-codes-2026.txt'), ICD);
    writeFileSync(path.join(tmp, 'hcc_ra_dx_to_cc_2026.csv'), MAP);
    writeFileSync(path.join(tmp, 'hcc_labels_cms_V28115L3_V24H86L1.csv'), LABELS);
    writeFileSync(path.join(tmp, 'rxnorm_rxnav_in_pin_min_scd.csv'), RX);
    const client = new PGlite();
    await client.exec(`
      create table code_icd10 (code text primary key, description text not null, imported_at timestamptz not null default now());
      create table code_hcc_map (icd10_code text not null, model text not null, model_name text not null, cc text not null, primary key (icd10_code, model, cc));
      create table code_hcc_label (model text not null, cc text not null, label text not null, label_file text not null, primary key (model, cc));
      create table code_rxnorm (rxcui text primary key, name text not null, tty text not null, dose_form text);`);
    const db = drizzle(client);
    const summary = await importCodesets(db, tmp);
    expect(summary).toEqual({ icd10: 3, hccMap: 3, hccLabels: 2, rxnorm: 3 });
    expect((await db.select().from(codeIcd10)).map((r) => r.code).sort()).toEqual(['A000', 'E119', 'I10']);
    expect((await db.select().from(codeHccMap)).find((r) => r.model === 'V28')?.cc).toBe('38');
    expect((await db.select().from(codeRxnorm)).find((r) => r.rxcui === '861007')?.doseForm).toBe('Oral Tablet');
    await importCodesets(db, tmp);
    expect(await db.select().from(codeIcd10)).toHaveLength(3);
    await client.close();
  });
});
