import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { createNotesEngine } from '../engines/notes/index';
import { dialogueToTranscript } from '../engines/notes/embedded/dialogue';
import { importCodesets } from './import';
import { loadCodeIndex, loadCodeIndexFromDb, resolveCodeIndex } from './service';

// Official formats, with a description the built-in set does not use, to tell which index answered.
const ICD = 'E119    Type 2 diabetes mellitus without complications\r\nI10     Essential (primary) hypertension\r\n';
const MAP = 'diagnosis_code,cc,model_name\nE119,38,CMS-HCC Model V28\nE119,19,CMS-HCC Model V24\nE119,31,RxHCC Model V08\n';
const LABELS = 'model,category,number,label,cms_label_file\nV28,HCC38,38,"Diabetes with Glycemic, Unspecified, or No Complications",V28115L3\nV24,HCC19,19,Diabetes without Complication,V24H86L1\n';
const RX = 'rxcui,name,tty,dose_form_parsed\n6809,metformin,IN,\n861007,metformin hydrochloride 500 MG Oral Tablet,SCD,Oral Tablet\n';

describe('code sets in the service database', () => {
  let database: Database;
  let files: string;
  beforeAll(async () => {
    files = mkdtempSync(path.join(os.tmpdir(), 'codesets-files-'));
    writeFileSync(path.join(files, 'icd10cm-codes-2026.txt'), ICD);
    writeFileSync(path.join(files, 'hcc_ra_dx_to_cc_2026.csv'), MAP);
    writeFileSync(path.join(files, 'hcc_labels_cms_V28115L3_V24H86L1.csv'), LABELS);
    writeFileSync(path.join(files, 'rxnorm_rxnav_in_pin_min_scd.csv'), RX);
    // The real migrations, so the test also proves 0003_codesets creates the tables the importer fills.
    database = await openDatabase({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'codesets-db-')) });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('has no index before an import, and resolution falls back to the files or the built-in set', async () => {
    expect(await loadCodeIndexFromDb(database.db as never)).toBeUndefined();
    const r = await resolveCodeIndex(database.db as never, path.join(files, 'absent'));
    expect(r.from).toBe('builtin');
    expect(r.index.hcc('E11.9')?.code).toBe('HCC38');
  });

  it('reads the files only when a code is first looked up, and logs where the index came from then', async () => {
    const logged: unknown[] = [];
    const log = { info: (fields: unknown, msg: string) => logged.push([msg, fields]) };
    const index = await loadCodeIndex({ db: database.db, config: { codesetsDir: files }, log } as never);
    // Nothing imported yet, so the index comes from the files, and has not read them at start.
    expect(logged).toEqual([]);
    expect(index.icd10('E11.9')).toEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect(index.counts.icd10).toBe(2);
    expect(logged).toEqual([['code sets loaded', { from: 'files', icd10: 2, hccMap: 2, rxnorm: 2 }]]);
  });

  it('imports into the migrated tables and then prefers them', async () => {
    expect(await importCodesets(database.db as never, files)).toEqual({ icd10: 2, hccMap: 3, hccLabels: 2, rxnorm: 2 });
    const { index, from } = await resolveCodeIndex(database.db as never);
    expect(from).toBe('database');
    expect(index.source).toBe('official');
    expect(index.counts.icd10).toBe(2);
    expect(index.icd10('E11.9')).toEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect(index.hcc('E119', 'V28')).toEqual({ code: 'HCC38', label: 'Diabetes with Glycemic, Unspecified, or No Complications' });
    expect(index.hcc('E119', 'V24')?.code).toBe('HCC19');
    expect(index.hcc('I10')).toBeUndefined();
    expect(index.rxByName('metformin')?.rxcui).toBe('6809');
    expect(index.rxClinicalDrugs('metformin').map((c) => c.rxcui)).toEqual(['861007']);
  });

  it('codes notes with the loaded index, as the server passes it to its engine (createServices)', async () => {
    const index = (await loadCodeIndexFromDb(database.db as never))!;
    const engine = createNotesEngine({ engine: 'embedded', codes: index });
    const res = await engine.generate({
      transcript: dialogueToTranscript(
        '[doctor] you have a history of type 2 diabetes and high blood pressure.\n[patient] yes.\n[doctor] my assessment is type 2 diabetes, so continue metformin 500 mg twice a day.\n[patient] okay.',
      ),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    // Only E11.9 and I10 exist in the imported table; both are found there, E11.9 with its V28 HCC.
    const dx = res.structured_data.diagnoses.values.map((d) => d.codes.map((c) => c.code));
    expect(dx).toContainEqual(['E11.9', 'HCC38']);
    expect(dx.flat().every((c) => ['E11.9', 'HCC38', 'I10'].includes(c))).toBe(true);
  });
});
