import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts'],
    globalSetup: ['server/testing/global-setup.ts'],
    setupFiles: ['server/testing/setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The database is real and shared by the files of one run. Files run one after another: the
    // background jobs under test (webhook dispatch) act on every partner's due rows, so a dispatch in
    // one file must not race the controlled clock of another.
    fileParallelism: false,
  },
});
