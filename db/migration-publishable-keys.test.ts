import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@/server/lib/ids';
import { authenticateApiKey, forgetCheckedKeys } from '@/server/modules/partners';
import { databaseBeforeMigration } from '@/server/testing/migration-db';
import { MIGRATIONS_DIR } from './index';

/**
 * Migration 0043 gives every partner made before it its publishable key: `pk_live_` for a live
 * partner, `pk_test_` for a test twin, one active each, kept whole and stored by the hash that authenticates it.
 */
describe('migration 0043 (publishable keys)', () => {
  let sql: postgres.Sql;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ sql, drop } = await databaseBeforeMigration('0043_publishable_keys'));
  }, 180_000);

  afterAll(() => drop?.());

  it('gives each partner row one active publishable key of its mode, which authenticates', async () => {
    await sql`insert into partners (id, name) values ('ptr_mig_live', 'Migrated')`;
    await sql`insert into partners (id, name, mode, live_partner_id) values ('ptr_mig_test', 'Migrated', 'test', 'ptr_mig_live')`;
    await sql`insert into api_keys (id, partner_id, kind, prefix, hash) values ('key_mig_sk', 'ptr_mig_live', 'partner', 'sk_live_abcdef', 'h')`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });

    const keys = await sql<
      { partner_id: string; kind: string; prefix: string; hash: string; publishable_key: string }[]
    >`
      select partner_id, kind, prefix, hash, publishable_key from api_keys
      where kind = 'publishable' and revoked_at is null order by partner_id`;
    expect(keys.map((k) => k.partner_id)).toEqual(['ptr_mig_live', 'ptr_mig_test']);
    expect(keys[0].publishable_key).toMatch(/^pk_live_[0-9a-f]{32}$/);
    expect(keys[1].publishable_key).toMatch(/^pk_test_[0-9a-f]{32}$/);
    for (const k of keys) {
      expect(k.prefix).toBe(k.publishable_key.slice(0, 14));
      expect(k.hash).toBe(sha256Hex(k.publishable_key));
      forgetCheckedKeys();
      expect(await authenticateApiKey(k.publishable_key, sql)).toMatchObject({
        partnerId: k.partner_id,
        kind: 'publishable',
        widgetOrigins: [],
      });
    }
    // The secret key is untouched, and a second active publishable key is refused by the index.
    expect((await sql`select publishable_key from api_keys where id = 'key_mig_sk'`)[0].publishable_key).toBeNull();
    await expect(
      sql`insert into api_keys (id, partner_id, kind, prefix, hash, publishable_key)
        values ('key_mig_2', 'ptr_mig_live', 'publishable', 'pk_live_x', 'h2', 'pk_live_x')`,
    ).rejects.toMatchObject({ constraint_name: 'api_keys_one_publishable_idx' });
    await expect(
      sql`insert into api_keys (id, partner_id, kind, prefix, hash) values ('key_mig_3', 'ptr_mig_test', 'publishable', 'pk_test_x', 'h3')`,
    ).rejects.toMatchObject({ constraint_name: 'api_keys_publishable_key_check' });
  });
});
