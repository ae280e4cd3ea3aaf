import { defineConfig } from 'vitest/config';
import path from 'node:path';
import SlowestFirst, { SECONDS } from './scripts/vitest-sequencer.ts';

const ALL = ['{server,lib,app,components,bench,scripts}/**/*.test.ts'];
const INTEGRATION = '**/*.int.test.ts';
/** Unit files that decode minutes of speech (timed in CI, scripts/vitest-sequencer.ts): not in the quick pass. */
const SLOW_UNIT = Object.keys(SECONDS).filter((f) => !f.endsWith('.int.test.ts') && SECONDS[f]! >= 15);

// vitest 4.1 does not hand `--exclude` on to projects (only a fixed list of CLI options reaches them), and
// scripts/test.sh's PGlite pass excludes the PostgreSQL-only files with it: the projects take it from here.
const CLI_EXCLUDE = process.argv.flatMap((arg, i, all) => (arg === '--exclude' ? [all[i + 1]!] : arg.startsWith('--exclude=') ? [arg.slice(10)] : []));

// `npx vitest run` (npm test) runs all three projects, as one pool ordered by SlowestFirst;
// `npm run test:unit` runs the quick one alone.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    // No include here: a project's include would be added to it, not put in its place.
    exclude: ['node_modules', '.next', 'data', 'tmp', 'e2e', ...CLI_EXCLUDE],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    projects: [
      // Unit files share their worker processes (no isolation): forking a process and importing the module graph
      // anew for each of ~150 small files cost more than the tests (28 Nov: 155 s and 165 CPU-s for the project
      // alone, 54 s and 92 CPU-s shared; the same 1,005 tests pass, also with the files in shuffled order, twice).
      { extends: true, test: { name: 'unit', include: ALL, exclude: [INTEGRATION, ...SLOW_UNIT], isolate: false } },
      { extends: true, test: { name: 'speech', include: SLOW_UNIT } },
      { extends: true, test: { name: 'integration', include: [INTEGRATION.replace('**', '{server,lib,app,components,bench,scripts}/**')] } },
    ],
  },
});
