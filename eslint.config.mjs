import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Modules hold the domain; they never reach into the app layer.
    files: ['server/**/*.ts', 'db/**/*.ts'],
    // Tests, their helpers and benchmarks drive the real route handlers.
    ignores: ['**/*.test.ts', 'server/testing/**', 'server/bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/app/*'], message: 'server/ and db/ must not import from app/' }] },
      ],
    },
  },
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
