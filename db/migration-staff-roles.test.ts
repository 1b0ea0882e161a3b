import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '@/server/lib/staff-roles';
import { databaseBeforeMigration } from '@/server/testing/migration-db';
import { MIGRATIONS_DIR } from './index';

/** Migration 0044: the old `staff` role becomes `support`; only the four roles are accepted, `viewer` by default. */
describe('migration 0044 (staff roles)', () => {
  let sql: postgres.Sql;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ sql, drop } = await databaseBeforeMigration('0044_staff_roles'));
  }, 180_000);

  afterAll(() => drop?.());

  it('makes members and invitations of the old staff role support, keeps admins, and accepts only the four roles', async () => {
    await sql`insert into staff_users (id, email, password_hash, role) values
      ('stf_mig_admin', 'a@mig.test', 'h', 'admin'), ('stf_mig_staff', 's@mig.test', 'h', 'staff')`;
    await sql`insert into staff_invitations (id, email, role, token_hash, expires_at) values
      ('inv_mig_staff', 'i@mig.test', 'staff', 'th', now() + interval '1 day')`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });

    const members = await sql`select id, role from staff_users order by id`;
    expect(members).toEqual([
      { id: 'stf_mig_admin', role: 'admin' },
      { id: 'stf_mig_staff', role: 'support' },
    ]);
    expect((await sql`select role from staff_invitations`)[0].role).toBe('support');
    await sql`insert into staff_users (id, email, password_hash) values ('stf_mig_new', 'n@mig.test', 'h')`;
    expect((await sql`select role from staff_users where id = 'stf_mig_new'`)[0].role).toBe('viewer');
    await expect(sql`update staff_users set role = 'staff' where id = 'stf_mig_new'`).rejects.toThrow(
      /staff_users_role_check/,
    );
    for (const role of STAFF_ROLES) await sql`update staff_users set role = ${role} where id = 'stf_mig_new'`;
  });
});
