import type { KnipConfig } from 'knip';

/*
 * `npx knip` (part of `npm run lint` and of the static checks): no unused file, export, type or
 * dependency. Knip's plugins already find the entries of Next.js (app/** pages, layouts, routes,
 * instrumentation.ts, proxy.ts, next.config.ts), Vitest (**\/*.test.ts, setup and global-setup files),
 * Playwright (e2e/*.spec.ts, the config), drizzle-kit (drizzle.config.ts, db/schema), ESLint and the
 * package.json scripts. Listed here only what none of them can see.
 */
const config: KnipConfig = {
  entry: [
    // Command-line tools, run by hand (`tsx server/cli/<tool>.ts`) as well as by some npm scripts.
    'server/cli/*.ts',
    // Started as child processes by file path (`node --import tsx <path>`): a bench baseline server, and
    // the tests' second processes (a worker, a boot, an embedded database).
    'server/bench/*-server.ts',
    'server/testing/*-child.ts',
    // Run by .ci/test-all.sh.
    '.ci/*.mjs',
    // The widget's script, bundled by esbuild from this path (server/widget/bundle.ts), never imported.
    'components/widget/index.ts',
    // The quick start /docs shows; e2e/typed-client.spec.ts copies it beside the packed client and runs it.
    'docs/quick-start/partner-integration.ts',
    // The partner client's face: what partners import from `@encore/partner-client` (client/README.md).
    'client/src/index.ts',
    // The reference edge's njs code, loaded by nginx (edge/nginx.conf `js_import`), never imported.
    'edge/edge.js',
  ],
  // Prism is started by e2e/openapi-conformance.spec.ts (its CLI's file, in a child process).
  ignoreDependencies: ['@stoplight/prism-cli'],
  // A type or interface that an exported function takes or returns stays exported, so that callers can
  // name it, even when only its own file does so far. Values get no such pass.
  ignoreExportsUsedInFile: { interface: true, type: true },
};

export default config;
