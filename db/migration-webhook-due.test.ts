import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '@/server/testing/scratch-db';
import { MIGRATIONS_DIR } from './index';

/**
 * Migration 0028 moves what is due out of webhook_messages into webhook_due. A database migrated up to
 * 0027 with pending and delivered messages must come out of it with every pending message due (at its
 * old next attempt, a running lease included) and nothing delivered queued: nothing accepted is lost.
 */
describe('migration 0028 (webhook_due)', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let url: string;
  let name: string;
  let sql: postgres.Sql;
  let before: string;

  beforeAll(async () => {
    // The scratch database is migrated to the end; this test wants its own, stopped before 0028.
    scratch = await createScratchDatabase('mig0028');
    const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
    name = `mig0028_${Date.now()}_${process.pid}`;
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const u = new URL(scratch.url);
    u.pathname = `/${name}`;
    url = u.toString();
    sql = postgres(url, { max: 2, onnotice: () => {} });

    before = mkdtempSync(path.join(os.tmpdir(), 'encore-mig-'));
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0028_webhook_due');
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));
    await migrate(drizzle(sql), { migrationsFolder: before });
  }, 180_000);

  afterAll(async () => {
    await sql?.end();
    if (before) rmSync(before, { recursive: true, force: true });
    // This database lives on the scratch database's server (the machine's, with DATABASE_URL): dropped
    // here, before the scratch one.
    if (scratch) {
      const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      await scratch.drop();
    }
  });

  it('queues every pending message at its next attempt and nothing delivered', async () => {
    await sql`insert into partners (id, name) values ('ptr_mig', 'Migrated')`;
    await sql`insert into webhook_messages (id, partner_id, family, action, data, status, next_attempt_at)
      values ('msg_new', 'ptr_mig', 'test', 'ping', '{}', 'pending', '2026-01-01T00:00:00Z'),
             ('msg_leased', 'ptr_mig', 'test', 'ping', '{}', 'pending', '2026-01-01T00:05:00Z'),
             ('msg_done', 'ptr_mig', 'test', 'ping', '{}', 'delivered', '2026-01-01T00:00:00Z')`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });

    const due = await sql<{ message_id: string; partner_id: string; due_at: string }[]>`
      select message_id, partner_id, due_at::text from webhook_due order by message_id`;
    expect(due.map((d) => [d.message_id, d.partner_id, new Date(d.due_at).toISOString()])).toEqual([
      ['msg_leased', 'ptr_mig', '2026-01-01T00:05:00.000Z'],
      ['msg_new', 'ptr_mig', '2026-01-01T00:00:00.000Z'],
    ]);
    // Room for HOT updates: a delivery on the message's page, a lease on the due row's.
    const options = await sql<{ relname: string; reloptions: string[] }[]>`
      select relname, reloptions from pg_class where relname in ('webhook_messages', 'webhook_due') order by relname`;
    expect(options.map((o) => [o.relname, o.reloptions])).toEqual([
      ['webhook_due', ['fillfactor=50']],
      ['webhook_messages', ['fillfactor=50']],
    ]);
  });
});
