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

  it("shows the quick start project's package.json and tsconfig.json as they are", () => {
    const readme = read('../README.md');
    for (const file of ['package.json', 'tsconfig.json']) {
      const text = read(`../../docs/quick-start/${file}`);
      expect(readme, `client/README.md must show docs/quick-start/${file}`).toContain(`\`\`\`json\n${text}\`\`\``);
    }
  });

  it("pins the quick start's tools to the versions Encore's own build uses", () => {
    type Manifest = { type?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const project = JSON.parse(read('../../docs/quick-start/package.json')) as Manifest;
    const root = JSON.parse(read('../../package.json')) as Manifest;
    const ours = { ...root.dependencies, ...root.devDependencies };
    expect(project.type).toBe('module');
    expect(Object.keys(project.devDependencies ?? {}).sort()).toEqual(['@types/node', 'tsx', 'typescript']);
    for (const [name, version] of Object.entries(project.devDependencies ?? {})) expect(version, name).toBe(ours[name]);
  });

  it("installs this package's version from a running Encore's downloads", () => {
    const { version } = JSON.parse(read('../package.json')) as { version: string };
    expect(read('../README.md')).toContain(
      `npm install https://encore.example/downloads/encore-partner-client-${version}.tgz`,
    );
  });
});
