#!/usr/bin/env bash
# The whole test suite: typecheck, a production build, unit + integration tests on PGlite, the integration
# tests again on PostgreSQL when TEST_DATABASE_URL is set, and the Playwright end-to-end tests.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p tmp
rm -f tmp/results-*.json
status=0

echo "== build"
if ! npx next build > tmp/build.log 2>&1; then
  tail -50 tmp/build.log
  echo "0 passed, 1 failed"
  exit 1
fi

# After the build, so the types Next generates (next-env.d.ts) are part of the check.
echo "== typecheck"
npx tsc --noEmit -p . || status=1

echo "== unit and integration tests (PGlite)"
TEST_DATABASE_URL= npx vitest run --reporter=default --reporter=json --outputFile=tmp/results-vitest-pglite.json || status=1

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== integration tests (PostgreSQL)"
  npx vitest run --reporter=default --reporter=json --outputFile=tmp/results-vitest-postgres.json .int.test.ts || status=1
fi

if [ -f playwright.config.ts ] && [ -d e2e ] && [ "${SKIP_E2E:-0}" != "1" ]; then
  echo "== end-to-end tests (Playwright, Chromium)"
  # The browser suite runs on the embedded defaults (PGlite), as a newcomer's service does.
  TEST_DATABASE_URL= PLAYWRIGHT_JSON_OUTPUT_NAME=tmp/results-playwright.json PLAYWRIGHT_HTML_OPEN=never npx playwright test --reporter=list,json,html || status=1
fi

node scripts/test-summary.mjs tmp/results-*.json || status=1
exit $status
