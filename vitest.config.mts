import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { isKnownDriverDefect } from './server/testing/driver-defects';
import { LongFilesFirst } from './server/testing/sequencer';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'client/**/*.test.ts'],
    globalSetup: ['server/testing/global-setup.ts'],
    setupFiles: ['server/testing/setup.ts'],
    pool: 'forks',
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files run in parallel, each worker on its own copy of the migrated template database
    // (server/testing/global-setup.ts): the background jobs under test (webhook dispatch) act on every
    // partner's due rows, so a dispatch in one worker's file must not race another worker's clock.
    // Three on two cores: many files wait (a lease running out, a child process starting, PostgreSQL); with two
    // workers the cores were 76 % busy and the suite took 186 s, with three 89 % and 150 s (docs/testing.md).
    maxWorkers: Number(process.env.VITEST_WORKERS) || 3,
    // The files that start processes of their own first, so the run does not end on one of them alone.
    sequence: { sequencer: LongFilesFirst },
    // One dependency defect the fault tests provoke on purpose (server/testing/driver-defects.ts); any other
    // unhandled error fails the run.
    onUnhandledError: (error) => (isKnownDriverDefect(error) ? false : undefined),
  },
});
