/**
 * Regenerates server/codesets/builtin/*.generated.ts from the hand-written vocabulary and the official
 * files (see generate-builtin.ts). Usage: npm run codesets:builtin [-- dir], dir defaulting to
 * ../shared/data/codesets.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_DIR, OFFICIAL_DIR, generateBuiltin } from './generate-builtin';

const built = generateBuiltin(path.resolve(process.argv[2] ?? OFFICIAL_DIR));
if (built.missing.icd10.length) console.error('ICD-10-CM codes not billable in this release:', built.missing.icd10.join(' '));
if (built.missing.rxnorm.length) console.error('RxNorm ingredients not found:', built.missing.rxnorm.join(', '));
for (const [name, text] of Object.entries(built.files)) writeFileSync(path.join(BUILTIN_DIR, name), text);
console.log(built.summary);
