import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * "What happens when a show is cancelled" is answered by listing the modules' reactions/shows-cancelled.ts
 * only while those files and server/wiring.ts agree: a reaction file nobody wires never runs, and a line of
 * wiring whose reaction lives elsewhere is found by no one. Read from the source text, as a newcomer would.
 */
const root = process.cwd();
const modulesDir = path.join(root, 'server/modules');
const modules = readdirSync(modulesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const read = (file: string) => readFileSync(file, 'utf8');
const kebab = (event: string) => event.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase());
const pascal = (file: string) => file.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());
const exportedFunctions = (source: string) =>
  new Set([...source.matchAll(/^export (?:async )?function (\w+)\(/gm)].map((m) => m[1]));

/** Every event a module publishes: the `on<Event>` of its events.ts. */
const published = new Map<string, string>();
for (const name of modules) {
  const file = path.join(modulesDir, name, 'events.ts');
  if (!existsSync(file)) continue;
  for (const fn of exportedFunctions(read(file))) if (/^on[A-Z]/.test(fn)) published.set(fn.slice(2), name);
}

/** Every reaction file, as `module/event-name`, with the functions it exports. */
const reactions = new Map<string, Set<string>>();
for (const name of modules) {
  const dir = path.join(modulesDir, name, 'reactions');
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.test.ts')) continue;
    reactions.set(`${name}/${file.replace(/\.ts$/, '')}`, exportedFunctions(read(path.join(dir, file))));
  }
}

const wiring = read(path.join(root, 'server/wiring.ts'));
const code = wiring.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const statements = code
  .replace(/^import[\s\S]*?from '[^']+';$/gm, '')
  .split(';')
  .map((s) => s.trim())
  .filter(Boolean);
/** One per line of wiring: `on<Event>('<module>', <reaction>)`. */
const subscriptions = statements.map((s) => {
  const m = /^on([A-Z]\w*)\('([\w-]+)', (\w+)\)$/.exec(s);
  return m ? { event: m[1], module: m[2], reaction: m[3], text: s } : { text: s };
});
/** What wiring.ts imports from each module's index. */
const importsFrom = new Map<string, Set<string>>();
for (const m of wiring.matchAll(/^import \{([^}]*)\} from '@\/server\/modules\/([\w-]+)';$/gm)) {
  importsFrom.set(m[2], new Set(m[1].split(',').map((s) => s.trim().replace(/^type /, ''))));
}

describe("server/wiring.ts and the modules' reactions/ files", () => {
  it('wires with plain lines only: on<Event>(<module>, <reaction>), no logic', () => {
    expect(subscriptions.length).toBeGreaterThan(0);
    expect(subscriptions.filter((s) => !('event' in s)).map((s) => s.text)).toEqual([]);
  });

  it("declares every event in its module's events.ts, nowhere else", () => {
    const stray: string[] = [];
    for (const name of modules) {
      const dir = path.join(modulesDir, name);
      for (const file of readdirSync(dir)) {
        if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'events.ts') continue;
        for (const fn of exportedFunctions(read(path.join(dir, file)))) {
          if (/^on[A-Z]/.test(fn)) stray.push(`${name}/${file}: ${fn}`);
        }
      }
    }
    expect(stray).toEqual([]);
  });

  it('names, for every reaction file, an event some module publishes and a line of wiring', () => {
    const problems: string[] = [];
    for (const [key, exported] of reactions) {
      const [name, file] = key.split('/');
      const event = pascal(file);
      if (!published.has(event)) problems.push(`${key}.ts: no events.ts exports on${event}`);
      const wired = subscriptions.filter((s) => s.event === event && s.module === name);
      if (wired.length !== 1) problems.push(`${key}.ts: wired ${wired.length} times in server/wiring.ts`);
      for (const s of wired) {
        if (!exported.has(s.reaction!)) problems.push(`${key}.ts does not export ${s.reaction}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has, for every line of wiring, the reaction file that holds its reaction', () => {
    const problems: string[] = [];
    for (const s of subscriptions) {
      if (!('event' in s)) continue;
      const key = `${s.module}/${kebab(s.event!)}`;
      const publisher = published.get(s.event!);
      if (!publisher) problems.push(`${s.text}: no events.ts exports on${s.event}`);
      else if (!importsFrom.get(publisher)?.has(`on${s.event}`))
        problems.push(`${s.text}: not imported from ${publisher}`);
      if (!reactions.has(key))
        problems.push(`${s.text}: no server/modules/${s.module}/reactions/${kebab(s.event!)}.ts`);
      else if (!reactions.get(key)!.has(s.reaction!)) problems.push(`${s.text}: ${key}.ts does not export it`);
      if (!importsFrom.get(s.module!)?.has(s.reaction!)) problems.push(`${s.text}: not imported from ${s.module}`);
    }
    expect(problems).toEqual([]);
  });
});
