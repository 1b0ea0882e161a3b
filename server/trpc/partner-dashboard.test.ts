import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { createPartnerCredentials } from '@/server/modules/partners';
import { findInvitation } from '@/server/modules/staff';
import { createCallerFactory } from './init';
import { appRouter } from './router';

/*
 * What the partner's dashboard asks of the API for a partner's own users: their partner's pages answer,
 * another partner's ids are NOT_FOUND (nothing of it in a list), and the staff-only procedures behind the
 * pages they are not shown (money across partners, channels, integration, audit, jobs) are FORBIDDEN.
 */

const createCaller = createCallerFactory(appRouter);
const admin = createCaller({ staff: { id: 'stf_pd_admin', email: 'admin@pd.test', name: 'Admin', role: 'admin' } });
const WEEK = { from: '2026-01-05', to: '2026-01-11' };

async function twoPartners() {
  const a = await createPartnerCredentials(`PD A ${process.pid} ${Date.now()}`, getDb());
  const b = await createPartnerCredentials(`PD B ${process.pid} ${Date.now()}`, getDb());
  const as = (role: 'owner' | 'developer' | 'viewer') =>
    createCaller({
      staff: null,
      partnerUser: {
        id: `stf_pd_${role}_${a.partnerId}`,
        email: `${role}@pd.test`,
        name: role,
        role,
        partnerId: a.partnerId,
      },
    });
  return { a, b, as };
}

describe("a partner's dashboard for its own users", () => {
  it("partner A's owner reads A and its test twin; B's ids are not found, and nothing of B is listed", async () => {
    const { a, b, as } = await twoPartners();
    const owner = as('owner');
    expect((await owner.partners.get({ partnerId: a.partnerId })).id).toBe(a.partnerId);
    expect((await owner.partners.get({ partnerId: a.testPartnerId })).id).toBe(a.testPartnerId);
    const listed = (await owner.partners.list({ page: 1, pageSize: 100 })).items.map((p) => p.id);
    expect(listed).toContain(a.partnerId);
    expect(listed).not.toContain(b.partnerId);
    expect(listed).not.toContain(b.testPartnerId);
    const onB = [
      () => owner.partners.get({ partnerId: b.partnerId }),
      () => owner.partners.keys.list({ partnerId: b.partnerId }),
      () => owner.partners.keys.create({ partnerId: b.partnerId, kind: 'partner', label: 'not mine' }),
      () => owner.partners.publishableKeys.rotate({ partnerId: b.testPartnerId, keyId: 'pkk_nope' }),
      () => owner.webhooks.endpoint.get({ partnerId: b.partnerId }),
      () => owner.opsMoney.statement({ partnerId: b.partnerId, ...WEEK }),
      () => owner.opsMoney.statement({ partnerId: b.testPartnerId, ...WEEK }),
      () => owner.partnerUsers.list({ partnerId: b.partnerId }),
      () => owner.partnerUsers.invite({ partnerId: b.partnerId, email: 'intruder@pd.test', role: 'owner' }),
      () => owner.catalog.events({ partnerId: b.partnerId }),
    ];
    for (const call of onB) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("the statement is the partner's alone, the same as staff read it; a bad period names its field", async () => {
    const { a, as } = await twoPartners();
    const mine = await as('viewer').opsMoney.statement({ partnerId: a.partnerId, ...WEEK });
    expect(mine).toEqual(await admin.opsMoney.statement({ partnerId: a.partnerId, ...WEEK }));
    expect(Object.keys(mine).sort()).toEqual(['mismatchCount', 'payoutsByState', 'totals']);
    for (const t of [...mine.totals, ...mine.payoutsByState]) expect(t.partnerId).toBe(a.partnerId);
    await expect(
      as('viewer').opsMoney.statement({ partnerId: a.partnerId, from: 'soon', to: WEEK.to }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('from'),
    });
  });

  it('the staff-only procedures behind the pages a partner user is not shown are FORBIDDEN, whatever the role', async () => {
    const { a, as } = await twoPartners();
    for (const role of ['owner', 'developer', 'viewer'] as const) {
      const user = as(role);
      const staffOnly = [
        () => user.opsMoney.reconciliation({ partnerId: a.partnerId, ...WEEK }),
        () => user.opsOverview.filters({}),
        () => user.channels.list({ partnerId: a.partnerId }),
        () => user.partners.integration.get({ partnerId: a.partnerId }),
        () => user.audit.list({ partnerId: a.partnerId, limit: 10 }),
        () => user.jobs.overview(),
        () => user.staff.list(),
        () => user.banners.create({ partnerId: a.partnerId } as never),
        () => user.partners.rename({ partnerId: a.partnerId, name: 'Mine now' }),
      ];
      for (const call of staffOnly) await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    // By role on their own partner: a viewer may not create a key, a developer may not invite.
    await expect(
      as('viewer').partners.keys.create({ partnerId: a.partnerId, kind: 'partner', label: 'viewer key' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      as('developer').partnerUsers.invite({ partnerId: a.partnerId, email: 'dev-invites@pd.test' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const created = await as('developer').partners.keys.create({
      partnerId: a.partnerId,
      kind: 'partner',
      label: 'dev key',
    });
    expect(created.secret).toMatch(/^sk_live_/);
  });

  it('an invitation link names the partner it is for (the invite page says whose it is)', async () => {
    const { a } = await twoPartners();
    const invited = await admin.partnerUsers.invite({
      partnerId: a.partnerId,
      email: `owner-${Date.now()}@pd.test`,
      role: 'owner',
    });
    expect(await findInvitation(invited.token, getDb())).toMatchObject({ partnerId: a.partnerId });
    const staffInvite = await admin.staff.invite({ email: `staff-${Date.now()}@pd.test`, role: 'viewer' });
    expect(await findInvitation(staffInvite.token, getDb())).toMatchObject({ partnerId: null });
  });
});
