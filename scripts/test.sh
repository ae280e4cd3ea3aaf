#!/usr/bin/env bash
# The whole test suite: typecheck, a production build, unit + integration tests on PGlite, the integration
# tests again on PostgreSQL when TEST_DATABASE_URL is set, and the Playwright end-to-end tests.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p tmp
rm -f tmp/results-*.json tmp/playwright.log tmp/vitest-postgres.log
status=0

echo "== build"
if ! npx next build > tmp/build.log 2>&1; then
  tail -50 tmp/build.log
  echo "0 passed, 1 failed"
  exit 1
fi

run_e2e=0
if [ -f playwright.config.ts ] && [ -d e2e ] && [ "${SKIP_E2E:-0}" != "1" ]; then run_e2e=1; fi

# The browser suite needs only the build, and it is paced by real time (the fake microphone plays its visit at
# real time, the tests wait for the recogniser): run alone, it left 60 % of two cores idle for 12 minutes. It
# starts now, and everything below runs beside it at a lower priority (nice), so the browser suite keeps the
# pace its timings assume and the CPU-bound checks take what it leaves.
e2e_pid=
if [ "$run_e2e" = 1 ]; then
  echo "== end-to-end tests (Playwright, Chromium), started beside the rest; output below"
  # The browser suite runs on the embedded defaults (PGlite), as a newcomer's service does.
  TEST_DATABASE_URL= PLAYWRIGHT_JSON_OUTPUT_NAME=tmp/results-playwright.json PLAYWRIGHT_HTML_OPEN=never \
    npx playwright test --reporter=list,json,html > tmp/playwright.log 2>&1 &
  e2e_pid=$!
fi
lower() { nice -n 10 "$@"; }

# After the build, so the types Next generates (next-env.d.ts) are part of the check.
echo "== typecheck"
lower npx tsc --noEmit -p . || status=1

# Type-aware lint (floating promises, the 350-line limit) and the layering rules, with no warning allowed:
# eslint.config.mjs and .dependency-cruiser.cjs say what each rule is for.
echo "== lint and layering"
lower npm run --silent lint || status=1
lower npm run --silent depcruise || status=1

# Several processes on one database (web and worker processes of one deployment), or database connections to
# lose: PGlite admits one process and has no connections, so these run in the PostgreSQL pass only, and fail
# rather than skip when run without TEST_DATABASE_URL.
ONLY_ON_POSTGRES=(
  server/pipeline/worker.int.test.ts
  server/test/durability/postgres-reconnect.int.test.ts
  server/test/scale/shared-limits.int.test.ts
  server/test/scale/multi-process.int.test.ts
  server/status/disabled-provider-streams.int.test.ts
  server/status/stale-listener.int.test.ts
  server/realtime/parallel-streams-processes.int.test.ts
)

# PGlite is PostgreSQL itself (compiled to WebAssembly), so SQL, scoping and constraints behave the same on
# both; what differs is connections, pooling, concurrency, LISTEN/NOTIFY, several processes on one database,
# and a database that outlives the process (a crash, a shutdown, an outage). The PostgreSQL pass runs the files
# whose subject is one of those, besides the PostgreSQL-only ones above; every other file's subject (the API's
# semantics, tenant scoping, the recognisers, input handling) is the same SQL on the same engine, and runs once,
# on PGlite. A new integration file about one of those differences is added here.
ALSO_ON_POSTGRES=(
  server/pipeline/finalise-lock.int.test.ts
  server/domain/sessions/abandon-session.int.test.ts
  server/api/status-events.int.test.ts
  server/test/durability/durability.int.test.ts
  server/realtime/crash.int.test.ts
  server/realtime/shutdown.int.test.ts
  server/realtime/stream-caps.int.test.ts
  server/realtime/parallel-streams.int.test.ts
  server/webhooks/webhooks.int.test.ts
  server/webhooks/outbox-recovery.int.test.ts
  server/test/security/console-signin-limit.int.test.ts
  server/cli/admin.int.test.ts
)

# The PostgreSQL pass runs beside the PGlite pass rather than after it: much of its time is waiting (a server
# killed and restarted, a database connection lost and regained, streams held open), which the PGlite pass's
# work fills. On one 2-core machine (28 Nov, clean clones) the two passes took 831 s + 151 s one after the
# other and 884 s side by side. Each pass has its own database, ports and temporary directories; the
# PostgreSQL pass's output is shown after the PGlite pass.
pg_pid=
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== integration tests (PostgreSQL), started beside the PGlite pass; output below"
  lower npx vitest run --reporter=default --reporter=json --outputFile=tmp/results-vitest-postgres.json "${ONLY_ON_POSTGRES[@]}" "${ALSO_ON_POSTGRES[@]}" > tmp/vitest-postgres.log 2>&1 &
  pg_pid=$!
fi

echo "== unit and integration tests (PGlite)"
pglite_exclude=()
for f in "${ONLY_ON_POSTGRES[@]}"; do pglite_exclude+=(--exclude "$f"); done
TEST_DATABASE_URL= lower npx vitest run --reporter=default --reporter=json --outputFile=tmp/results-vitest-pglite.json "${pglite_exclude[@]}" || status=1

if [ -n "$pg_pid" ]; then
  wait "$pg_pid" || status=1
  echo "== integration tests (PostgreSQL), run beside the PGlite pass"
  cat tmp/vitest-postgres.log
fi

if [ -n "$e2e_pid" ]; then
  wait "$e2e_pid" || status=1
  echo "== end-to-end tests (Playwright, Chromium), run beside the above"
  cat tmp/playwright.log
fi

node scripts/test-summary.mjs tmp/results-*.json || status=1
exit $status
