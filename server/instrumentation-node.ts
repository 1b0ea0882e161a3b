import { bootApp } from './boot';
import { EnvError } from './env';
import { installRenderGate } from './http/render-gate';
import { captureErrorOutput } from './testing/error-output';

// The e2e server: keep what is written to stderr, so tests can see that bad input logs no error.
if (process.env.TEST_HOOKS_SECRET) captureErrorOutput();

// Buy pages in a rush are rendered a few at a time, in arrival order (render-gate.ts says why).
if (process.env.NEXT_PHASE !== 'phase-production-build') installRenderGate();

// Skipped while `next build` collects pages: building must not need a database.
if (process.env.NEXT_PHASE !== 'phase-production-build') {
  try {
    await bootApp();
  } catch (err) {
    if (err instanceof EnvError) {
      process.stderr.write(`\n${err.message}\n\nSee docs/configuration.md.\n`);
    } else {
      process.stderr.write(`\nEncore failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    }
    process.exit(1);
  }
}
