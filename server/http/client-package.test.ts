import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/downloads/[file]/route';
import { CLIENT_TARBALL, clientPackage } from './client-package';
import { buildOpenApiDocument } from './openapi';
import { allRoutes } from './registry';

const CLIENT = path.join(process.cwd(), 'client');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'encore-client-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const download = (file: string) =>
  GET(new Request(`http://encore/downloads/${file}`), { params: Promise.resolve({ file }) });

describe('the partner client package a running Encore hands out', () => {
  it('holds exactly what npm pack in client/ packs, byte for byte, under npm’s name for it', () => {
    const built = clientPackage()!;
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: CLIENT, encoding: 'utf8' }),
    ) as { filename: string; name: string; version: string; files: { path: string }[] }[];
    expect([built.name, built.version, built.filename]).toEqual([packed.name, packed.version, packed.filename]);
    expect(built.files).toEqual(packed.files.map((f) => f.path).sort());

    // A tarball tar reads (every header's checksum right), each file under package/ as on disk.
    const tarball = path.join(scratch, built.filename);
    writeFileSync(tarball, built.tarball);
    execFileSync('tar', ['-xzf', tarball, '-C', scratch]);
    for (const file of built.files) {
      expect(readFileSync(path.join(scratch, 'package', file)), file).toEqual(readFileSync(path.join(CLIENT, file)));
    }
    expect(readFileSync(path.join(scratch, 'package/LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('is versioned with the API it describes: 1.0.x is the client of API v1.0', () => {
    const api = /^v\.?(\d+)\.(\d+)$/.exec(buildOpenApiDocument(allRoutes).info.version)!;
    expect(api).not.toBeNull();
    const [major, minor] = clientPackage()!.version.split('.');
    expect([major, minor]).toEqual([api[1], api[2]]);
  });

  it('answers its two names with the tarball, anything else with a 404 that names both', async () => {
    const { filename, tarball } = clientPackage()!;
    const current = await download(CLIENT_TARBALL);
    expect([current.status, current.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=300, must-revalidate',
    ]);
    expect(Buffer.from(await current.arrayBuffer())).toEqual(tarball);
    const versioned = await download(filename);
    expect([versioned.status, versioned.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=31536000, immutable',
    ]);
    expect(versioned.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);

    const other = await download('encore-partner-client-0.0.1.tgz');
    expect(other.status).toBe(404);
    const { errors } = (await other.json()) as { errors: { message: string; code: string } };
    expect(errors.code).toBe('NOT_FOUND');
    expect(errors.message).toContain(CLIENT_TARBALL);
    expect(errors.message).toContain(filename);
  });

  it('is null where the client was never built', () => {
    expect(clientPackage(scratch)).toBeNull();
  });
});
