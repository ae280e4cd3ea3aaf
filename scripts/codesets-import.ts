/**
 * npm run codesets:import [-- --dir <codesets dir>]
 * Loads the official code-set files (ICD-10-CM, CMS-HCC map and labels, RxNorm) into the database the
 * service uses, so the server prefers them over the files and the built-in set from its next start.
 * Directory: --dir, else CODESETS_DIR, else ../shared/data/codesets beside the project.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { closeAppContext, createAppContext } from '../server/bootstrap';
import { DirLockedError } from '../server/db/dir-lock';
import { importCodesets } from '../server/codesets/import';
import { PROJECT_ROOT, readCodesetDir } from '../server/codesets/index';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const given = arg('dir') ?? process.env.CODESETS_DIR ?? '../shared/data/codesets';
  const dir = path.resolve(arg('dir') ? process.cwd() : PROJECT_ROOT, given);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    console.error(`codesets:import: directory ${dir} not found (pass --dir <codesets dir> or set CODESETS_DIR)`);
    return 2;
  }
  const data = readCodesetDir(dir);
  if (!data.icd10.length && !data.hccMap.length && !data.hccLabels.length && !data.rxnorm.length) {
    console.error(`codesets:import: no code-set files in ${dir} (expected e.g. icd10cm-codes-2026.txt, hcc_ra_dx_to_cc_2026.csv, rxnorm_*.csv)`);
    return 2;
  }
  let ctx;
  try {
    ctx = await createAppContext();
  } catch (err) {
    if (err instanceof DirLockedError) {
      console.error(
        `codesets:import: the database in DATA_DIR is held by a running server (process ${err.pid}); PGlite admits one process. ` +
          'Stop the server and run the import again, or point DATABASE_URL at PostgreSQL so both can share it.',
      );
      return 3;
    }
    throw err;
  }
  try {
    const t0 = Date.now();
    const s = await importCodesets(ctx.db as unknown as Parameters<typeof importCodesets>[0], dir, data);
    console.log(
      `codesets:import: ${s.icd10} ICD-10-CM codes, ${s.hccMap} HCC mappings, ${s.hccLabels} HCC labels, ${s.rxnorm} RxNorm concepts from ${dir} ` +
        `into ${ctx.database.kind} in ${((Date.now() - t0) / 1000).toFixed(1)} s. Restart the server to use them.`,
    );
    return 0;
  } finally {
    await closeAppContext(ctx);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`codesets:import failed: ${(err as Error).message}`);
    process.exit(1);
  },
);
