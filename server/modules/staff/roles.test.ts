import { describe, expect, it } from 'vitest';
import { scratchDrizzleForFile } from '@/server/testing/scratch-drizzle';
import { changeStaffRole, createStaff, listStaff, removeStaff } from './members';

/*
 * The last admin stays one, whatever arrives at once. On a database of its own: "the last admin" counts
 * every admin, so the other test files' members must not be there.
 */
const scratch = scratchDrizzleForFile('roles');

const admins = async () => (await listStaff(scratch.db)).filter((s) => s.role === 'admin').map((s) => s.id);

describe('the last admin', () => {
  it('two admins demoting each other 20 times at once: exactly one demotion lands, one admin is left', async () => {
    const a = await createStaff({ email: 'a@roles.test', password: 'correct horse', role: 'admin' }, scratch.db);
    const b = await createStaff({ email: 'b@roles.test', password: 'correct horse', role: 'admin' }, scratch.db);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        changeStaffRole({ staffId: i % 2 ? a.id : b.id, role: i % 3 ? 'viewer' : 'finance' }, scratch.db),
      ),
    );
    const landed = results.filter((r) => r.status === 'fulfilled' && r.value.before === 'admin');
    expect(landed).toHaveLength(1);
    expect(await admins()).toHaveLength(1);
    // Every refusal says why, none is another error.
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: 'CONFLICT',
        message: 'The last admin cannot be given another role',
      });
    }
    // Demoting someone who is not an admin any more still works (no admin is lost by it).
    expect(results.filter((r) => r.status === 'fulfilled').length + refused.length).toBe(20);
  });

  it('admins removing every other admin 20 times at once: one admin is always left', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await createStaff({ email: `r${i}@roles.test`, password: 'correct horse', role: 'admin' }, scratch.db)).id,
      );
    }
    const everyAdmin = await admins();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => {
        const target = everyAdmin[i % everyAdmin.length];
        const actor = everyAdmin[(i + 1) % everyAdmin.length];
        return removeStaff(actor, target, scratch.db);
      }),
    );
    expect(await admins()).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r as PromiseRejectedResult).reason).toHaveProperty('code');
    }
    const last = (await admins())[0];
    const another = ids.find((id) => id !== last) ?? 'stf_gone';
    await expect(removeStaff(another, last, scratch.db)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(changeStaffRole({ staffId: last, role: 'support' }, scratch.db)).rejects.toMatchObject({
      message: 'The last admin cannot be given another role',
    });
    expect(await changeStaffRole({ staffId: last, role: 'admin' }, scratch.db)).toMatchObject({ before: 'admin' });
  });
});
