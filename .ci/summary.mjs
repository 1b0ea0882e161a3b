// Sums the Vitest and Playwright JSON reports into one closing line: "Tests: N passed, N failed".
// A missing report (a suite that never ran) counts as a failure, so a silent skip cannot pass.
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`missing test report ${file}`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in r) {
    // Vitest (Jest-compatible JSON)
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // A file that failed to load has no failed test, but must still fail the run.
    if (r.numFailedTests === 0) failed += r.numFailedTestSuites ?? (r.success === false ? 1 : 0);
  } else if (r.stats) {
    // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped ?? 0;
    if ((r.errors ?? []).length) failed += r.errors.length; // global setup or webServer errors
  }
}
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
