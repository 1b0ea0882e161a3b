/**
 * What the e2e server reports as errors, kept so a test can ask whether a request it made logged an error
 * (bad input to a page is never an error log line). Two sources: our log's error level
 * (server/lib/log.ts hands each such line to ERROR_TAP while it is set) and Next.js's own reports
 * (`console.error`, `⨯ …`; a production server routes those to the log too, server/lib/error-lines.ts, and
 * so to the tap). Warnings are not errors and are left out. Installed only where TEST_HOOKS_SECRET
 * is set (the e2e server). Nothing of Node.js's streams is replaced: the log calls the tap itself.
 */

const KEEP = 200;
const kept: string[] = [];
let total = 0;
let installed = false;

/** Where the log hands its error lines while the e2e server keeps them (globalThis: one per process). */
const ERROR_TAP = Symbol.for('encore.log.errorTap');

function note(text: string): void {
  total++;
  kept.push(text.slice(0, 2000));
  if (kept.length > KEEP) kept.shift();
}

export function captureErrorOutput(): void {
  if (installed) return;
  installed = true;
  (globalThis as Record<symbol, unknown>)[ERROR_TAP] = note;
  const error = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    note(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
    error(...args);
  };
}

/** How many error writes there have been, and the last ones. */
export function errorOutput(): { total: number; last: string[] } {
  return { total, last: [...kept] };
}
