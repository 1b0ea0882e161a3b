import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/**
 * Module boundaries (README, "Architecture"). Each module in server/modules is entered through its
 * index.ts (and its schemas.ts: pure zod, the face client components may import); its tables
 * (db/schema/<file>.ts) are read and written by it alone; it stands below server/http, server/trpc,
 * server/jobs (but for the job client and types), server/wiring and app/.
 */
const OWNED_TABLES = {
  catalog: ['catalog'],
  tickets: ['tickets'],
  partners: ['partners', 'integrations'],
  staff: ['staff'],
  webhooks: ['webhooks'],
  channels: ['channels'],
  marketplace: ['marketplace'],
  fans: ['fans'],
  payments: ['payments'],
  mail: ['mail'],
  'market-data': ['market-data'],
  protection: ['protection'],
};
const deepImports = {
  group: ['@/server/modules/*/*', '!@/server/modules/*/schemas'],
  message: 'Import a module through its index.ts (or its schemas.ts for wire shapes); its other files are its own.',
};
const noApp = { group: ['@/app/*'], message: 'server/ and db/ must not import from app/' };

function boundaries() {
  const moduleConfigs = Object.entries(OWNED_TABLES).map(([name, tables]) => ({
    files: [`server/modules/${name}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@/db/schema', message: `Module ${name} imports only its own table files (db/schema/<file>).` },
          ],
          patterns: [
            deepImports,
            noApp,
            { group: ['../*'], message: 'Another module is imported through @/server/modules/<name>.' },
            {
              group: ['@/db/schema/*', ...tables.map((t) => `!@/db/schema/${t}`)],
              message: `Module ${name} owns ${tables.length ? tables.map((t) => `db/schema/${t}.ts`).join(', ') : 'no table'}; other tables are read and written through their module.`,
            },
            {
              group: [
                '@/server/http/*',
                '@/server/trpc/*',
                '@/server/auth/*',
                '@/server/wiring',
                '@/server/boot',
                '@/server/jobs/*',
                '!@/server/jobs/client',
                '!@/server/jobs/types',
                '@/server/testing/*',
                '@/server/bench/*',
              ],
              message:
                'Modules stand below http, trpc, the job registry and the wiring: import from server/lib instead.',
            },
          ],
        },
      ],
    },
  }));
  return [
    {
      // Everything else (tests included) enters modules through their faces.
      files: ['**/*.{ts,tsx}'],
      rules: { 'no-restricted-imports': ['error', { patterns: [deepImports] }] },
    },
    {
      files: ['server/**/*.{ts,tsx}', 'db/**/*.ts'],
      // Tests, their helpers and benchmarks drive the real route handlers.
      ignores: ['**/*.test.ts', 'server/testing/**', 'server/bench/**'],
      rules: { 'no-restricted-imports': ['error', { patterns: [deepImports, noApp] }] },
    },
    {
      files: ['server/lib/**/*.ts', 'db/**/*.ts'],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              deepImports,
              noApp,
              {
                group: [
                  '@/server/modules',
                  '@/server/modules/*',
                  '@/server/http/*',
                  '@/server/trpc/*',
                  '@/server/wiring',
                ],
                message: 'server/lib and db are below every module: they import none.',
              },
            ],
          },
        ],
      },
    },
    ...moduleConfigs,
  ];
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...boundaries(),
  // No import circle (module ↔ module, job client ↔ jobs, http ↔ modules; tests may close one) is
  // checked by oxlint's import/no-cycle (.oxlintrc.json, `npm run lint`): the same rule here took 85% of
  // ESLint's time (60 s of 70 s on two cores), oxlint's takes under a second.
  globalIgnores([
    '.next*/**',
    'node_modules/**',
    '.data/**',
    'e2e/artifacts/**',
    'playwright-report/**',
    'test-results/**',
    'next-env.d.ts',
  ]),
]);
