import { readdirSync } from 'node:fs';
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
  'access-layer': ['access-layer'],
  audit: ['audit'],
  'test-mode': [],
};
/**
 * Modules that own no table and only READ other modules' tables in SQL, never writing them (staff
 * reporting over joins no owner's function could make row by row: docs/operations.md). They may import
 * any db/schema file; every other boundary holds as for the modules above.
 */
const READ_ONLY_MODULES = ['ops', 'fan-pages'];
const deepImports = {
  group: ['@/server/modules/*/*', '!@/server/modules/*/schemas'],
  message: 'Import a module through its index.ts (or its schemas.ts for wire shapes); its other files are its own.',
};
const noApp = { group: ['@/app/*'], message: 'server/ and db/ must not import from app/' };

const noDefaultExecutor = {
  selector: "AssignmentPattern[right.type='CallExpression'][right.callee.name='getDb']",
  message:
    'No default executor: take `db`/`tx` as a required parameter, so a call inside a transaction cannot silently run outside it.',
};
const noFallbackExecutor = {
  selector: "LogicalExpression[operator='??'][right.type='CallExpression'][right.callee.name='getDb']",
  message:
    'No optional executor falling back to getDb(): take `db`/`tx` as a required parameter, so a call inside a transaction cannot silently run outside it.',
};

/**
 * The process-wide handle is for entry points (routes, pages, server actions, routers, job handlers, the
 * CLI, boot): a module function is handed its executor, so whoever calls it decides which transaction it
 * runs in. In a module only `jobs.ts` (the handlers' `run`) reaches for it.
 */
const noGlobalHandle = {
  name: '@/db',
  importNames: ['getDb', 'getSql'],
  message:
    "A module function takes its executor (`db: Db`, `tx: Tx`, `work: Work`) from its caller; only entry points (routes, pages, actions, routers, CLI, boot) and a module's jobs.ts call getDb()/getSql().",
};
function moduleConfig(name, tables, files, ignores, otherModule, entryPoint = false) {
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@/db/schema', message: `Module ${name} imports only its own table files (db/schema/<file>).` },
            ...(entryPoint ? [] : [noGlobalHandle]),
          ],
          patterns: [
            deepImports,
            noApp,
            { group: [otherModule], message: 'Another module is imported through @/server/modules/<name>.' },
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
  };
}

function boundaries() {
  // A module's reactions/<event>.ts reach their own module's files one level up (`../sales`); another
  // module is two levels up, and entered through its index.ts like from anywhere else.
  // A module's jobs.ts (its job handlers) is an entry point: it may call getDb()/getSql(); reactions are
  // not (they are handed the publisher's Work).
  const entryPoints = (name) => [`server/modules/${name}/jobs.ts`];
  const moduleConfigs = Object.entries(OWNED_TABLES).flatMap(([name, tables]) => [
    moduleConfig(
      name,
      tables,
      [`server/modules/${name}/**/*.{ts,tsx}`],
      ['**/*.test.ts', '**/reactions/**', ...entryPoints(name)],
      '../*',
    ),
    moduleConfig(name, tables, entryPoints(name), [], '../*', true),
    moduleConfig(name, tables, [`server/modules/${name}/reactions/**/*.{ts,tsx}`], ['**/*.test.ts'], '../../*'),
  ]);
  const schemaFiles = readdirSync(new URL('./db/schema', import.meta.url)).map((f) => f.replace(/\.ts$/, ''));
  for (const name of READ_ONLY_MODULES) {
    moduleConfigs.push(
      moduleConfig(
        name,
        schemaFiles,
        [`server/modules/${name}/**/*.{ts,tsx}`],
        ['**/*.test.ts', '**/reactions/**'],
        '../*',
      ),
      moduleConfig(name, schemaFiles, [`server/modules/${name}/reactions/**/*.{ts,tsx}`], ['**/*.test.ts'], '../../*'),
    );
  }
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

/**
 * Sizes a newcomer can read in one sitting: a server function at most 80 lines, a React
 * component or page at most 150; past that, a function is split into steps named for what they do.
 */
function sizes() {
  const options = { skipBlankLines: true, skipComments: true };
  return [
    {
      files: ['server/**/*.ts', 'db/**/*.ts', 'app/**/*.ts'],
      // Tests, their helpers and benchmarks read as scripts; their length is their story.
      ignores: ['**/*.test.ts', 'server/testing/**', 'server/bench/**'],
      rules: { 'max-lines-per-function': ['error', { max: 80, ...options }] },
    },
    {
      // Mails are components too (server/modules/mail/templates).
      files: ['app/**/*.tsx', 'components/**/*.tsx', 'server/**/*.tsx'],
      rules: { 'max-lines-per-function': ['error', { max: 150, ...options }] },
    },
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
  ...sizes(),
  {
    // A defaulted executor lets a call that forgets its `tx` run silently outside the transaction it
    // was meant for; the caller names it (`tx` inside a transaction, `getDb()` at an entry point).
    files: ['server/**/*.{ts,tsx}', 'db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', noDefaultExecutor, noFallbackExecutor] },
  },
  {
    // Plain .ts outside app/ and components/ holds no component and no hook (JSX needs .tsx; hooks live
    // beside the components that use them). The React rules have nothing to find there, and the React
    // Compiler behind react-hooks' rules compiled every function of every file to find it: 64% of ESLint's
    // time (react-hooks/static-components, the first of them to run).
    files: ['server/**/*.ts', 'db/**/*.ts', 'e2e/**/*.ts', 'client/**/*.ts', 'docs/**/*.ts', '*.ts', '.ci/**/*.mjs'],
    rules: Object.fromEntries(
      [...new Set(nextVitals.flatMap((config) => Object.keys(config.rules ?? {})))]
        .filter((rule) => rule.startsWith('react/') || rule.startsWith('react-hooks/'))
        .map((rule) => [rule, 'off']),
    ),
  },
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
    // The partner client's build and its generated types (npm run client:build).
    'client/dist/**',
    'client/src/generated/**',
  ]),
]);
