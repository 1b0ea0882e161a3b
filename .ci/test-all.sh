#!/usr/bin/env bash
# `npm test`: static checks, the Vitest suite on real PostgreSQL, a production build, and the
# Playwright suite in real Chromium against it. Ends with one line "Tests: N passed, N failed".
# Database: embedded PostgreSQL by default; the machine's server when DATABASE_URL is set.
#
# `npm test -- --suites-only` runs the database suites on the build a full run made: Vitest whole and the
# browser suite's @database-flow tests. CI's second database mode (.ci/run), where the static checks, the
# build and the page-only tests would repeat the first mode's work.
# Each phase prints its seconds ("── <phase>: N s"), also kept in test-results/phases.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
suites_only=0
[[ "${1:-}" == "--suites-only" ]] && suites_only=1
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json test-results/phases.txt test-results/summary.json

status=0
phase_started=0
phase_name=''
# The machine's CPU ticks (busy, all) so far, from /proc/stat: a phase's share of busy CPU tells whether
# it is bound by the cores (near 100 %) or waits (then more parallelism would help).
cpu_ticks() {
  awk '/^cpu /{ all = 0; for (i = 2; i <= NF; i++) all += $i; print all - $5 - $6, all }' /proc/stat 2>/dev/null || echo '0 0'
}
phase_cpu=''
begin() {
  phase_name=$1
  phase_started=$(date +%s%N)
  phase_cpu=$(cpu_ticks)
  echo "── $phase_name"
}
end() {
  local ms=$((($(date +%s%N) - phase_started) / 1000000))
  local s busy
  s=$(printf '%d.%01d' $((ms / 1000)) $((ms % 1000 / 100)))
  busy=$(echo "$phase_cpu $(cpu_ticks)" | awk '{ d = $4 - $2; print (d > 0 ? int(100 * ($3 - $1) / d) : 0) }')
  echo "── $phase_name: ${s} s (CPU ${busy} % busy)"
  echo "$phase_name	$s	$busy" >>test-results/phases.txt
}

# Debian's Chromium, installed when missing, in the background until Playwright needs it.
bash .ci/ensure-chromium.sh >test-results/chromium.log 2>&1 &
chromium_pid=$!
# Debian's nginx for the reference edge's tests (server/testing/edge.test.ts), likewise until Vitest.
bash .ci/ensure-nginx.sh >test-results/nginx.log 2>&1 &
nginx_pid=$!

typechecked=0
if [[ $suites_only == 0 ]]; then
  # The partner client (client/): its types generated from the OpenAPI document, then its build (dist/), which
  # the type check, knip and the e2e suite (e2e/typed-client.spec.ts packs it) read.
  begin 'partner client'
  if npm run --silent client:build >test-results/client.log 2>&1; then
    echo '   ok'
  else
    cat test-results/client.log
    echo '   client:build FAILED'
    status=1
  fi
  end

  # Five single-threaded checks side by side (two cores); each one's output is printed after all end.
  begin 'static checks'
  checks=(tsc eslint oxlint prettier knip)
  npx tsc --noEmit >test-results/tsc.log 2>&1 &
  pids=($!)
  npx eslint . --max-warnings=0 >test-results/eslint.log 2>&1 &
  pids+=($!)
  npx oxlint -c .oxlintrc.json --deny-warnings server db app >test-results/oxlint.log 2>&1 &
  pids+=($!)
  npx prettier --check . --log-level=warn >test-results/prettier.log 2>&1 &
  pids+=($!)
  npx knip --no-progress >test-results/knip.log 2>&1 &
  pids+=($!)
  for i in "${!checks[@]}"; do
    if wait "${pids[$i]}"; then
      echo "   ${checks[$i]} ok"
      [[ ${checks[$i]} == tsc ]] && typechecked=1
    else
      echo "   ${checks[$i]} FAILED:"
      cat "test-results/${checks[$i]}.log"
      status=1
    fi
  done
  end
fi

if ! wait $nginx_pid; then
  echo '── nginx for the edge tests could not be installed (test-results/nginx.log):'
  cat test-results/nginx.log
  status=1
fi
begin 'vitest'
vitest_args=()
# The second run is for the database suites. Two files do not read DATABASE_URL at all, so once is enough:
# db/embedded.test.ts tests the embedded server's life cycle; server/testing/edge.test.ts tests the reference
# edge (nginx) in front of a fake origin (25 s, the slowest file of that run).
[[ $suites_only == 1 ]] && vitest_args=(--exclude db/embedded.test.ts --exclude server/testing/edge.test.ts)
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json "${vitest_args[@]}" || status=1
end

build_ok=1
if [[ $suites_only == 0 ]]; then
  begin 'next build'
  # The project was just type-checked as a whole (tsc above); the build need not do it again.
  if NEXT_BUILD_TYPECHECKED=$typechecked npx next build >test-results/build.log 2>&1 &&
    npx tsx server/cli/widget-build.ts >>test-results/build.log 2>&1; then
    echo "   ok; $(tail -n 1 test-results/build.log)"
  else
    cat test-results/build.log
    echo '   next build FAILED'
    build_ok=0
    status=1
  fi
  end
elif [[ ! -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ]]; then
  echo "── no production build in ${NEXT_DIST_DIR:-.next}: run the whole \`npm test\` first"
  build_ok=0
  status=1
fi

if ! wait $chromium_pid; then
  cat test-results/chromium.log
  build_ok=0
  status=1
fi
if [[ $build_ok == 1 ]]; then
  begin 'playwright'
  if [[ $suites_only == 1 ]]; then
    # The second run (another database server, same build): the Vitest suite above ran whole; of the browser
    # suite, the flows tagged @database-flow (ownership and money end to end through the built server on this
    # server's database). The other pages read what those modules wrote, tested on both servers by Vitest.
    E2E_SHOTS=0 npx playwright test --grep @database-flow || status=1
  else
    npx playwright test || status=1
  fi
  end
fi

node .ci/summary.mjs test-results/unit.json test-results/e2e.json || status=1
exit $status
