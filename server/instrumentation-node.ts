import { bootApp } from './boot';
import { EnvError } from './env';
import { captureErrorOutput } from './lib/error-capture';
import { installErrorLines } from './lib/error-lines';
import { errorFields, flushLogs, log } from './lib/log';
import { startedByServerEntry } from './server-entry';

// The e2e server: keep what is written to stderr, so tests can see that bad input logs no error.
if (process.env.TEST_HOOKS_SECRET) captureErrorOutput();
// A production server writes every error it reports as one JSON line (server/lib/error-lines.ts); the
// development server keeps Next.js's readable reports.
if (process.env.NODE_ENV === 'production' && process.env.NEXT_PHASE !== 'phase-production-build') installErrorLines();

// A production server is Encore's own (server/start.ts): `next start` alone would serve without the
// client's address (the per-address limits would count no one) and without the shared buy page.
if (
  process.env.NODE_ENV === 'production' &&
  process.env.NEXT_PHASE !== 'phase-production-build' &&
  !startedByServerEntry()
) {
  process.stderr.write('\nStart Encore with `npm start` (server/start.ts), not `next start`.\n');
  process.exit(1);
}

// Skipped while `next build` collects pages: building must not need a database.
if (process.env.NEXT_PHASE !== 'phase-production-build') {
  try {
    await bootApp();
  } catch (err) {
    if (err instanceof EnvError) {
      log.error('Encore failed to start: its configuration is not valid (see docs/configuration.md)', {
        problems: err.message,
      });
    } else {
      log.error('Encore failed to start', errorFields(err));
    }
    await flushLogs();
    process.exit(1);
  }
}
