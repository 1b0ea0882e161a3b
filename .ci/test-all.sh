#!/usr/bin/env bash
# `npm test`: static checks, the Vitest suite on real PostgreSQL, a production build, and the
# Playwright suite in real Chromium against it. Ends with one line "Tests: N passed, N failed".
# Database: embedded PostgreSQL by default; the machine's server when DATABASE_URL is set.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json

bash .ci/ensure-chromium.sh || exit 1

status=0
step() {
  echo "── $*"
  "$@" || status=1
}

step npx tsc --noEmit
step npx eslint . --max-warnings=0
step npx prettier --check . --log-level=warn
step npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json
if npx next build > test-results/build.log 2>&1; then
  echo "── next build ok"
  step npx playwright test
else
  cat test-results/build.log
  echo "── next build FAILED"
  status=1
fi

node .ci/summary.mjs test-results/unit.json test-results/e2e.json || status=1
exit $status
