import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the production build (`next build` runs first, from the npm script).
 * Without DATABASE_URL the server gets a fresh embedded PostgreSQL in a new temporary DATA_DIR per run.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;

// Playwright evaluates this file in the runner and again in each worker; the directory is made once
// and handed to workers through the environment they inherit.
if (!process.env.DATABASE_URL && !process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'encore-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // Only the runner gets here (workers inherit the variable); it exits after stopping the server.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

// The secret that opens the server's test-only set-up calls (server/http/test-hooks.ts), new per run.
process.env.E2E_TEST_HOOKS_SECRET ??= randomBytes(24).toString('hex');

const serverEnv: Record<string, string> = {
  TEST_HOOKS_SECRET: process.env.E2E_TEST_HOOKS_SECRET,
  // Opens /metrics (e2e/metrics.spec.ts sends the same value); a fixed one, the server being local and brief.
  METRICS_TOKEN: 'e2e-metrics-token-0123456789',
  // No timed sweeps: a sweep racing a test's own request (a feed pulled by the minute job just before
  // "Pull now") would make the outcome depend on the clock.
  JOBS_SCHEDULES: '0',
  ADMIN_EMAIL: 'e2e-admin@encore.test',
  ADMIN_PASSWORD: 'e2e-password-123',
  DEMO_PARTNER: '0',
  LOG_LEVEL: 'warn',
  PUBLIC_BASE_URL: baseURL,
  NEXTAUTH_URL: baseURL,
  // The webhook receiver of e2e/webhooks.spec.ts listens on 127.0.0.1 inside the test process.
  ALLOW_PRIVATE_PARTNER_URLS: '1',
  // One trusted proxy: a request without X-Forwarded-For is the peer itself (127.0.0.1), and a test that
  // needs a client address of its own (the limits per client) says it in X-Forwarded-For, as a proxy would.
  TRUSTED_PROXY_HOPS: '1',
  ...(process.env.DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL }
    : { DATA_DIR: process.env.E2E_DATA_DIR ?? '' }),
};

export default defineConfig({
  testDir: './e2e',
  outputDir: 'e2e/artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files run on two workers (tests of one file in order): every test makes its own partner, staff
  // member or fan, so nothing is shared between workers but the server and its database.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // list for people, JSON for the `npm test` summary line (.ci/summary.mjs), HTML kept but never opened.
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/e2e.json' }],
    ['html', { outputFolder: 'playwright-report', open: 'never' }],
  ],
  use: {
    baseURL,
    headless: true,
    // The screenshots a person looks at are taken on purpose (`shot` in e2e/helpers.ts); others only on failure.
    screenshot: 'only-on-failure',
    // No trace by default: recording one costs ~30% of the browser's CPU on every test, and CI keeps only
    // the console. To debug a failure locally: `npx playwright test --trace retain-on-failure`.
    trace: 'off',
    launchOptions: {
      // Playwright cannot download its own browser here; Debian's Chromium (its headless shell build,
      // installed by .ci/ensure-chromium.sh) is used instead.
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // `npm start`'s command, without npm in between (SIGTERM reaches the server itself).
    command: `node --import tsx server/start.ts -p ${port}`,
    url: `${baseURL}/healthz`,
    env: serverEnv,
    reuseExistingServer: false,
    // First boot initialises PostgreSQL and applies migrations.
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM lets the app stop its embedded PostgreSQL cleanly.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
});
