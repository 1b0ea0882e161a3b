// Sums the Vitest and Playwright JSON reports into one closing line: "Tests: N passed, N failed".
// A missing report (a suite that never ran) counts as a failure, so a silent skip cannot pass.
// Before it: the phases' seconds (test-results/phases.txt) and the 10 slowest test files of both
// suites, so the next slow test is seen the day it lands. The counts also go to test-results/summary.json.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
/** [suite, file, seconds] of every test file. */
const files = [];
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
    for (const t of r.testResults ?? []) {
      files.push(['vitest', path.relative(process.cwd(), t.name), (t.endTime - t.startTime) / 1000]);
    }
  } else if (r.stats) {
    // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped ?? 0;
    if ((r.errors ?? []).length) failed += r.errors.length; // global setup or webServer errors
    const perFile = new Map();
    const walk = (suite, fileName) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests) {
          for (const res of t.results) perFile.set(fileName, (perFile.get(fileName) ?? 0) + res.duration / 1000);
        }
      }
      for (const child of suite.suites ?? []) walk(child, fileName);
    };
    for (const suite of r.suites ?? []) walk(suite, suite.file);
    for (const [name, seconds] of perFile) files.push(['playwright', `e2e/${name}`, seconds]);
  }
}

if (fs.existsSync('test-results/phases.txt')) {
  console.log("Phases (seconds; the share of the machine's CPU that was busy):");
  for (const line of fs.readFileSync('test-results/phases.txt', 'utf8').trim().split('\n')) {
    const [name, seconds, busy] = line.split('\t');
    console.log(`  ${seconds.padStart(7)}  ${name}${busy ? ` (CPU ${busy} % busy)` : ''}`);
  }
}
if (files.length) {
  console.log('Slowest test files (seconds; a Playwright file counts its tests, which may run on two workers):');
  for (const [suite, name, seconds] of files.sort((a, b) => b[2] - a[2]).slice(0, 10)) {
    console.log(`  ${seconds.toFixed(1).padStart(7)}  ${suite.padEnd(10)} ${name}`);
  }
}
fs.mkdirSync('test-results', { recursive: true });
fs.writeFileSync('test-results/summary.json', JSON.stringify({ passed, failed, skipped }) + '\n');
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
