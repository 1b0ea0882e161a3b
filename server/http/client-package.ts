import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { processCache } from '@/server/lib/short-cache';

/**
 * The partner client's package (`client/`, `@encore/partner-client`) as the tarball `npm pack` makes of it,
 * served by the running Encore at `/downloads/encore-partner-client.tgz` (and under its version): what this
 * build compiled (`client/dist`, made by `npm run build`), its package.json, README and LICENSE, under
 * `package/`, with npm's fixed timestamp. Made once per process, in memory: no npm, no tar and no write at
 * run time. server/http/client-package.test.ts compares its files with `npm pack --dry-run`'s.
 */
export interface ClientPackage {
  name: string;
  version: string;
  /** The versioned file name, as `npm pack` names it: `encore-partner-client-<version>.tgz`. */
  filename: string;
  files: string[];
  tarball: Buffer;
}

/** The file name without a version: always this build's package. */
export const CLIENT_TARBALL = 'encore-partner-client.tgz';

/** npm writes every entry with this time (1985-10-26T08:15:00Z), so a package's tarball depends on its files alone. */
const NPM_MTIME = 499162500;
const CLIENT_DIR = 'client';

/** The files of the package, relative to client/, in the order npm packs them; null when client/dist was never built. */
function packageFiles(root: string): string[] | null {
  const dist = path.join(root, 'dist');
  let built: string[];
  try {
    built = readdirSync(dist, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  } catch {
    return null;
  }
  return ['LICENSE', 'README.md', ...built, 'package.json'].sort();
}

/** One ustar header block (POSIX.1-1988), as npm's tar writes a regular file. */
function header(name: string, size: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`client package: a path over 100 bytes: ${name}`);
  const block = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'ascii');
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0') + '\0';
  field(0, 100, name);
  field(100, 8, octal(0o644, 8));
  field(108, 8, octal(0, 8));
  field(116, 8, octal(0, 8));
  field(124, 12, octal(size, 12));
  field(136, 12, octal(NPM_MTIME, 12));
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return block;
}

function tar(entries: { name: string; data: Buffer }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { name, data } of entries) {
    blocks.push(header(name, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** One package per client folder (one in an instance; tests make others): bounded like every in-process cache. */
const packages = processCache<ClientPackage>('client-package', { max: 64 });

/** This build's client package; null when `client/dist` has not been built (`npm run build` builds it). */
export function clientPackage(cwd = process.cwd()): ClientPackage | null {
  const root = path.join(cwd, CLIENT_DIR);
  const kept = packages.get(root);
  if (kept) return kept;
  const files = packageFiles(root);
  if (!files) return null;
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const entries = files.map((file) => ({ name: `package/${file}`, data: readFileSync(path.join(root, file)) }));
  const built: ClientPackage = {
    name: manifest.name,
    version: manifest.version,
    filename: `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`,
    files,
    tarball: gzipSync(tar(entries), { level: 9 }),
  };
  packages.set(root, built);
  return built;
}
