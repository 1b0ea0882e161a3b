import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

/**
 * The package's README is the partner quick start: its TypeScript blocks, in order, are the quick start
 * file /docs shows and e2e/typed-client.spec.ts type-checks against the packed package and runs.
 */
describe('the README', () => {
  it('shows the quick start file whole, block by block', () => {
    const readme = read('../README.md');
    const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map((m) => m[1]);
    expect(
      `${blocks.join('\n\n')}\n`,
      'client/README.md must show docs/quick-start/partner-integration.ts, split at its top-level comments',
    ).toBe(read('../../docs/quick-start/partner-integration.ts'));
  });

  it("installs this package's version from a running Encore's downloads", () => {
    const { version } = JSON.parse(read('../package.json')) as { version: string };
    expect(read('../README.md')).toContain(
      `npm install https://encore.example/downloads/encore-partner-client-${version}.tgz`,
    );
  });
});
