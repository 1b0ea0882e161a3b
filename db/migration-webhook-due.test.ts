import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '@/server/testing/migration-db';
import { MIGRATIONS_DIR } from './index';

/**
 * Migration 0028 moves what is due out of webhook_messages into webhook_due. A database migrated up to
 * 0027 with pending and delivered messages must come out of it with every pending message due (at its
 * old next attempt, a running lease included) and nothing delivered queued: nothing accepted is lost.
 */
describe('migration 0028 (webhook_due)', () => {
  let sql: postgres.Sql;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ sql, drop } = await databaseBeforeMigration('0028_webhook_due'));
  }, 180_000);

  afterAll(() => drop?.());

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
