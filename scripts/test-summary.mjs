// Prints one closing line over every runner's JSON report: "N passed, N failed, N skipped", preceded by each
// failed test with the start of its error, so the tail of a CI log names what failed without the full log.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const firstLines = (text) => String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, 6).join('\n    ');

/** Playwright nests suites by file and describe block; its failed tests are those whose last result did not pass. */
function playwrightFailures(suites, file = '') {
  for (const suite of suites ?? []) {
    const where = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const last = results[results.length - 1];
        if (test.status === 'unexpected' || test.status === 'flaky') {
          failures.push({ where, title: spec.title, error: firstLines(last?.error?.message ?? last?.errors?.[0]?.message) });
        }
      }
    }
    playwrightFailures(suite.suites, where);
  }
}

for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (typeof report.numPassedTests === 'number') {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const suite of report.testResults ?? []) {
      const where = path.relative(process.cwd(), suite.name);
      for (const t of suite.assertionResults ?? []) {
        if (t.status === 'failed') failures.push({ where, title: t.fullName ?? t.title, error: firstLines(t.failureMessages?.[0]) });
      }
      // A file that fails before its tests run (an import or a hook) has a message and no failed test.
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failed += 1;
        failures.push({ where, title: '(file)', error: firstLines(suite.message) });
      }
    }
  } else if (report.stats) {
    passed += report.stats.expected ?? 0;
    failed += (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
    skipped += report.stats.skipped ?? 0;
    playwrightFailures(report.suites);
  }
}
for (const f of failures) console.log(`FAILED ${f.where} › ${f.title}\n    ${f.error}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
