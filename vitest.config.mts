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
    // The database is real and shared by the files of one run; files use their own partners.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
