import { defineConfig } from 'vitest/config';
import path from 'node:path';
import SlowestFirst from './scripts/vitest-sequencer.ts';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['{server,lib,app,components,bench,scripts}/**/*.test.ts'],
    exclude: ['node_modules', '.next', 'data', 'tmp', 'e2e'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
  },
});
