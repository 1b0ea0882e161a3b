import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { runMigrations } from '@/db';
import { startEmbeddedPostgres } from '@/db/embedded';

/**
 * The Vitest run's cluster trades crash durability for speed: tests kill app processes, never PostgreSQL,
 * and the cluster is thrown away after the run. (The app's own embedded cluster and the bench's keep
 * PostgreSQL's defaults.)
 */
const TEST_CLUSTER_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

export interface ScratchServer {
  /** A URL of the server's maintenance database, for CREATE / DROP DATABASE. */
  adminUrl: string;
  stop: () => Promise<void>;
}

/** Where a run's scratch databases live: DATABASE_URL's server, or a new embedded cluster in a temporary directory. */
export async function startScratchServer(label: string, opts: { fast?: boolean } = {}): Promise<ScratchServer> {
  const external = process.env.DATABASE_URL;
  if (external) return { adminUrl: external, stop: async () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `encore-${label}-`));
  // A random port range per run: a process left over from an earlier run must never find this
  // run's server where it expects its own (same user and password on the same port).
  const pg = await startEmbeddedPostgres({
    dataDir: dir,
    mode: 'own',
    portFrom: 55000 + Math.floor(Math.random() * 5000),
    extraFlags: opts.fast ? TEST_CLUSTER_FLAGS : [],
  });
  return {
    adminUrl: pg.url,
    stop: async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The URL of database `name` on the server of `serverUrl`. */
function databaseUrl(serverUrl: string, name: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Creates database `name` (a copy of `template` when given: CREATE DATABASE … TEMPLATE, far faster than
 * replaying the migrations) and answers its URL and a drop. `fast`: commits are not waited for on disk
 * (`synchronous_commit = off` for this database only, which a shared server such as CI's allows too).
 */
export async function createDatabase(
  serverUrl: string,
  name: string,
  opts: { template?: string; fast?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}${opts.template ? ` template ${opts.template}` : ''}`);
    if (opts.fast) await admin.unsafe(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end();
      }
    },
  };
}

/** A database name no other run or file picks: label, time, process and a random part. */
export function uniqueName(label: string): string {
  return `encore_${label}_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
}

/**
 * A throwaway, migrated database for tests and benchmarks. Inside the Vitest run (the global setup sets
 * TEST_PG_SERVER_URL and TEST_PG_TEMPLATE) it is a copy of the run's migrated template on the run's
 * server; elsewhere, a new database on DATABASE_URL's server, or a new embedded cluster, migrated.
 */
export async function createScratchDatabase(label = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const runServer = process.env.TEST_PG_SERVER_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  if (runServer && template) return createDatabase(runServer, uniqueName(label), { template, fast: true });

  const server = await startScratchServer(label);
  const db = await createDatabase(server.adminUrl, uniqueName(label));
  await runMigrations(db.url);
  return {
    url: db.url,
    drop: async () => {
      await db.drop();
      await server.stop();
    },
  };
}
