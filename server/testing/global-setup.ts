import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { runMigrations } from '@/db';
import { startEmbeddedPostgres } from '@/db/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One real PostgreSQL for the run: with DATABASE_URL, a scratch database created on that server (and
 * dropped afterwards) so runs never see each other's rows; without, an embedded PostgreSQL in a
 * temporary directory. Migrations are applied exactly as the app applies them.
 */
export default async function setup(project: TestProject) {
  let url: string;
  let teardown: () => Promise<void>;
  const external = process.env.DATABASE_URL;
  if (external) {
    const name = `encore_test_${Date.now()}_${process.pid}`;
    const admin = postgres(external, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const u = new URL(external);
    u.pathname = `/${name}`;
    url = u.toString();
    teardown = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'encore-test-'));
    const pg = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    url = pg.url;
    teardown = async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  await runMigrations(url);
  project.provide('databaseUrl', url);
  return teardown;
}
