import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envVariableNames, EnvError, parseEnv } from './env';

describe('environment validation', () => {
  it('applies defaults and treats empty variables as unset', () => {
    const e = parseEnv({ PORT: '', DATA_DIR: '' });
    expect(e.PORT).toBe(3000);
    expect(e.DATA_DIR).toBe('./.data');
    expect(e.DEMO_PARTNER).toBe(true);
  });

  it('names every bad variable in one readable error', () => {
    let error: unknown;
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('Invalid environment configuration');
    expect(message).toMatch(/PORT: /);
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('ADMIN_PASSWORD: must be at least 8 characters');
  });
});

describe('payments configuration', () => {
  it('defaults to the sandbox and asks for both Stripe secrets with Stripe', () => {
    expect(parseEnv({}).PAYMENTS_PROVIDER).toBe('sandbox');
    expect(() => parseEnv({ PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      'STRIPE_WEBHOOK_SECRET: is required with PAYMENTS_PROVIDER=stripe',
    );
    const e = parseEnv({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(e.STRIPE_SECRET_KEY).toBe('sk_test_x');
    expect(() => parseEnv({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });
});

describe('the configuration tables (docs/configuration.md)', () => {
  const doc = readFileSync(path.join(process.cwd(), 'docs', 'configuration.md'), 'utf8');
  /** Variable names in the first column of the table under the given heading. */
  const tableUnder = (heading: string) => {
    const start = doc.indexOf(heading);
    expect(start, `docs/configuration.md has "${heading}"`).toBeGreaterThan(-1);
    const rest = doc.slice(start + heading.length);
    // The last section of the page runs to its end.
    const end = rest.search(/\n#{2,3} /);
    const section = end === -1 ? rest : rest.slice(0, end);
    const names = new Set<string>();
    for (const line of section.split('\n')) {
      if (!line.startsWith('|')) continue;
      for (const m of line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
    }
    return names;
  };

  it('lists exactly the variables server/env.ts reads', () => {
    expect([...tableUnder('## Runtime (`server/env.ts`)')].sort()).toEqual([...envVariableNames].sort());
  });

  it('documents every other variable the code, scripts and tests read', () => {
    const documented = new Set([
      ...tableUnder('## Runtime (`server/env.ts`)'),
      ...tableUnder('## Build, test and bench tooling'),
    ]);
    // Set by Node/Next.js themselves, or passed only from a test to the child process it starts.
    const notConfiguration = new Set([
      'NEXT_RUNTIME',
      'NEXT_PHASE',
      'E2E_DATA_DIR',
      'E2E_TEST_HOOKS_SECRET',
      'WORKER_IMPORT_BATCH',
      'WORKER_LOG_LEVEL',
      'BOOT_CHILD_SEED',
      'BOOT_CHILD_HEALTH',
      'IDEM_CALL',
      'BARE_CONFIG',
      'BARE_PORT',
      'RECEIVER_PORT',
      // Set by Vitest (the worker slot) and by the test run's global setup for its workers.
      'VITEST_POOL_ID',
      'TEST_PG_SERVER_URL',
      'TEST_PG_TEMPLATE',
      // Bash's own clock, read by the CI scripts.
      'SECONDS',
      // In the sample code /docs shows partners (their quick start's and receiver's variables, not ours).
      'ENCORE_WEBHOOK_SECRET',
      'ENCORE_URL',
      'ENCORE_KEY',
    ]);
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (['node_modules', '.git', '.data', 'test-results', 'playwright-report'].includes(entry.name)) continue;
        if (entry.name.startsWith('.next')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx|mts|mjs|sh)$/.test(entry.name) || full.includes(`${path.sep}.ci${path.sep}`)) {
          const text = readFileSync(full, 'utf8');
          for (const m of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]);
          if (full.endsWith('.sh') || full.includes(`${path.sep}.ci${path.sep}`)) {
            for (const m of text.matchAll(/\$\{?([A-Z][A-Z0-9_]+)/g)) read.add(m[1]);
          }
        }
      }
    };
    walk(process.cwd());
    const undocumented = [...read].filter((name) => !documented.has(name) && !notConfiguration.has(name));
    expect(undocumented).toEqual([]);
  });
});
