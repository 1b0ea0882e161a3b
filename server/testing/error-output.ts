/**
 * What the e2e server writes to stderr, kept so a test can ask whether a request it made logged an error
 * (issue 29: bad input to a page is never an error log line). Everything that is an error lands on stderr:
 * our log's error level (server/lib/log.ts) and Next.js's own reports (console.error, `⨯ …`). Warnings
 * that console.warn also writes there (Next.js warns of a server action this build does not know) are
 * not errors and are left out. Installed only where TEST_HOOKS_SECRET is set (the e2e server).
 */

const KEEP = 200;
const kept: string[] = [];
let total = 0;
let installed = false;

export function captureErrorOutput(): void {
  if (installed) return;
  installed = true;
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  const warn = console.warn.bind(console);
  let warning = false;
  console.warn = (...args: unknown[]) => {
    warning = true;
    try {
      warn(...args);
    } finally {
      warning = false;
    }
  };
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!warning) {
      total++;
      kept.push(String(chunk).slice(0, 2000));
      if (kept.length > KEEP) kept.shift();
    }
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}

/** How many error writes there have been, and the last ones. */
export function errorOutput(): { total: number; last: string[] } {
  return { total, last: [...kept] };
}
