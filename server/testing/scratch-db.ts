import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { runMigrations } from '@/db';
import { startEmbeddedPostgres } from '@/db/embedded';

/**
 * A throwaway, migrated database for tests and benchmarks: with DATABASE_URL, a scratch database on
 * that server (dropped by `drop()`); without, an embedded PostgreSQL in a temporary directory.
 */
export async function createScratchDatabase(label = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  let url: string;
  let drop: () => Promise<void>;
  const external = process.env.DATABASE_URL;
  if (external) {
    const name = `encore_${label}_${Date.now()}_${process.pid}`;
    const admin = postgres(external, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const u = new URL(external);
    u.pathname = `/${name}`;
    url = u.toString();
    drop = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `encore-${label}-`));
    // A random port range per run: a process left over from an earlier run must never find this
    // run's server where it expects its own (same user and password on the same port).
    const pg = await startEmbeddedPostgres({
      dataDir: dir,
      mode: 'own',
      portFrom: 55000 + Math.floor(Math.random() * 5000),
    });
    url = pg.url;
    drop = async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  await runMigrations(url);
  return { url, drop };
}
