import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Nothing patches the runtime. This test is, in code, the equivalent of:
 *   grep -rnE "prototype\.(emit|write|end|writeHead)|\.(write|end|writeHead) = " server proxy.ts app instrumentation.ts
 * An upgrade of Next.js or Node.js that routed around a patch would turn what it did off silently; what a
 * request needs before Next.js sees it lives in Encore's own server (server/http/listener.ts).
 */

const PATCH = /prototype\.(emit|write|end|writeHead)|\.(write|end|writeHead) = /;

function sources(entry: string): string[] {
  const full = path.join(process.cwd(), entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [full];
  return fs
    .readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('nothing patches the runtime', () => {
  it('finds no replaced emit/write/end/writeHead in server, proxy.ts, app or instrumentation.ts', () => {
    const files = ['server', 'proxy.ts', 'app', 'instrumentation.ts'].flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          PATCH.test(line) ? [`${path.relative(process.cwd(), file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
