import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { enqueueWebhook } from '@/server/modules/webhooks';
import {
  activeStaff,
  changePartnerUserRole,
  createPartnerUser,
  createStaff,
  openStaffSession,
  removePartnerUser,
  verifyStaffCredentials,
} from '@/server/modules/staff';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { scratchDrizzleForFile } from '@/server/testing/scratch-drizzle';
import { createCallerFactory } from './init';
import { appRouter } from './router';

const createCaller = createCallerFactory(appRouter);
const admin = createCaller({ staff: { id: 'stf_pu_admin', email: 'admin@pu.test', name: 'Admin', role: 'admin' } });
const asUser = (user: {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'developer' | 'viewer';
  partnerId: string;
}) => createCaller({ staff: null, partnerUser: user });
let seq = 0;
const email = (tag: string) => `${tag}-${process.pid}-${++seq}-${Date.now()}@pu.test`;

describe('partner users', () => {
  it('an admin invites an owner, who accepts, signs in, invites a developer; every step is in the audit log', async () => {
    const { partner } = await makePartner('PU invite');
    const anonymous = createCaller({ staff: null });
    const ownerEmail = email('owner');
    const invited = await admin.partnerUsers.invite({ partnerId: partner.id, email: ownerEmail, role: 'owner' });
    expect(invited.invitation).toMatchObject({ email: ownerEmail, role: 'owner', partnerId: partner.id });
    expect(
      await anonymous.partnerUsers.acceptInvitation({ token: invited.token, password: 'owner password 1' }),
    ).toEqual({ email: ownerEmail });
    // The same sign-in as staff: the member is the partner's, read from its row.
    const owner = await verifyStaffCredentials({ email: ownerEmail, password: 'owner password 1' }, null, getDb());
    expect(owner).toMatchObject({ email: ownerEmail, role: 'owner', partnerId: partner.id });
    const sid = await openStaffSession(owner!.id, getDb());
    expect(await activeStaff(owner!.id, 0, sid, getDb())).toMatchObject({ partnerId: partner.id, role: 'owner' });

    const asOwner = asUser(owner as Parameters<typeof asUser>[0]);
    const dev = await asOwner.partnerUsers.invite({ partnerId: partner.id, email: email('dev'), role: 'developer' });
    const joined = await anonymous.partnerUsers.acceptInvitation({ token: dev.token, password: 'dev password 12' });
    const listed = await asOwner.partnerUsers.list({ partnerId: partner.id });
    expect(listed.users.map((u) => [u.email, u.role])).toEqual([
      [ownerEmail, 'owner'],
      [joined.email, 'developer'],
    ]);
    // Neither shows among Encore's staff.
    expect((await admin.staff.list()).items.map((s) => s.email)).not.toContain(ownerEmail);

    const devId = listed.users[1].id;
    await asOwner.partnerUsers.changeRole({ partnerId: partner.id, userId: devId, role: 'viewer' });
    await asOwner.partnerUsers.remove({ partnerId: partner.id, userId: devId });
    const { items } = await admin.audit.list({ partnerId: partner.id, action: 'partner_user.', limit: 10 });
    expect(items.map((e) => [e.action, e.actorKind]).reverse()).toEqual([
      ['partner_user.invited', 'staff'],
      ['partner_user.invited', 'partner_user'],
      ['partner_user.role_changed', 'partner_user'],
      ['partner_user.removed', 'partner_user'],
    ]);
    const revoked = await asOwner.partnerUsers.invite({ partnerId: partner.id, email: email('late') });
    await asOwner.partnerUsers.revokeInvitation({ partnerId: partner.id, invitationId: revoked.invitation.id });
    await expect(
      anonymous.partnerUsers.acceptInvitation({ token: revoked.token, password: 'late password 1' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const joinedEntries = (await admin.audit.list({ action: 'partner_user.joined', limit: 100 })).items;
    expect(joinedEntries.map((e) => (e.after as { email: string }).email)).toEqual(
      expect.arrayContaining([ownerEmail, joined.email]),
    );
    // The owner cannot remove themselves, nor be left out: the last owner stays.
    await expect(asOwner.partnerUsers.remove({ partnerId: partner.id, userId: owner!.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      asOwner.partnerUsers.changeRole({ partnerId: partner.id, userId: owner!.id, role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    // A removed user's session opens nothing more (the last owner, removed by Encore's admin: refused too).
    await expect(admin.partnerUsers.remove({ partnerId: partner.id, userId: owner!.id })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const second = await createPartnerUser(
      { email: email('second'), password: 'second password', role: 'owner', partnerId: partner.id },
      getDb(),
    );
    const secondSession = await openStaffSession(second.id, getDb());
    expect(await activeStaff(second.id, 0, secondSession, getDb())).not.toBeNull();
    await asOwner.partnerUsers.remove({ partnerId: partner.id, userId: second.id });
    expect(await activeStaff(second.id, 0, secondSession, getDb())).toBeNull();
  });

  it("keeps a partner's user to their partner: another partner's things do not exist for them, its lists hold none", async () => {
    const a = await makePartner('PU tenant A');
    const b = await makePartner('PU tenant B');
    await pushEvent(b.apiKey, `evt-b-${Date.now()}`, [testShow('1')]);
    const bEvent = (await admin.catalog.events({ partnerId: b.partner.id })).items[0];
    const bShow = (await admin.catalog.event({ partnerId: b.partner.id, eventId: bEvent.id })).shows[0];
    const bKeys = await admin.partners.keys.list({ partnerId: b.partner.id });
    const bPublishable = await admin.partners.publishableKeys.get({ partnerId: b.partner.id });
    const bMessage = await enqueueWebhook(getDb(), b.partner.id, {
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: 'B-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
    });
    const bUser = await createPartnerUser(
      { email: email('b-owner'), password: 'b password 123', role: 'owner', partnerId: b.partner.id },
      getDb(),
    );

    const aOwner = await createPartnerUser(
      { email: email('a-owner'), password: 'a password 123', role: 'owner', partnerId: a.partner.id },
      getDb(),
    );
    const asA = asUser(aOwner);
    const p = a.partner.id;
    // Each call with B's ids answers exactly as with ids nobody has: A learns nothing of B.
    type Ids = { event: string; show: string; ref: string; message: string; key: string; pk: string; user: string };
    const theirs: Ids = {
      event: bEvent.id,
      show: bShow.id,
      ref: bEvent.externalReferenceId,
      message: bMessage,
      key: bKeys[0].id,
      pk: bPublishable!.id,
      user: bUser.id,
    };
    const nobodys: Ids = {
      event: 'evt_nobody',
      show: 'shw_nobody',
      ref: 'ref-nobody',
      message: 'msg_nobody',
      key: 'key_nobody',
      pk: 'key_nobody_pk',
      user: 'stf_nobody',
    };
    const calls: ((ids: Ids) => Promise<unknown>)[] = [
      (ids) => asA.catalog.event({ partnerId: p, eventId: ids.event }),
      (ids) => asA.catalog.show({ partnerId: p, eventId: ids.event, showId: ids.show }),
      (ids) => asA.protection.event({ partnerId: p, eventPk: ids.event }),
      (ids) => asA.rules.ofEvent({ partnerId: p, eventRef: ids.ref }),
      (ids) => asA.webhooks.messages.get({ partnerId: p, messageId: ids.message }),
      (ids) => asA.webhooks.messages.retryNow({ partnerId: p, messageId: ids.message }),
      (ids) => asA.partners.keys.revoke({ partnerId: p, keyId: ids.key }),
      (ids) => asA.partners.publishableKeys.rotate({ partnerId: p, keyId: ids.pk }),
      (ids) => asA.partnerUsers.changeRole({ partnerId: p, userId: ids.user, role: 'viewer' }),
      (ids) => asA.partnerUsers.remove({ partnerId: p, userId: ids.user }),
    ];
    const answer = (call: (ids: Ids) => Promise<unknown>, ids: Ids) =>
      call(ids).then(
        () => 'done',
        (err: { code: string }) => err.code,
      );
    for (const call of calls) {
      const got = await answer(call, theirs);
      expect(got, String(call)).toBe(await answer(call, nobodys));
      expect(got, String(call)).not.toBe('done');
    }
    // B itself, and its test twin, do not exist for A.
    await expect(asA.partners.get({ partnerId: b.partner.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(asA.partners.testMode.wipe({ testPartnerId: b.testPartner.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Nothing of B's was changed by the refusals.
    expect((await admin.partners.keys.list({ partnerId: b.partner.id })).map((k) => k.revokedAt)).toEqual(
      bKeys.map((k) => k.revokedAt),
    );
    expect((await admin.partnerUsers.list({ partnerId: b.partner.id })).users.map((u) => u.role)).toEqual(['owner']);

    // Lists: A's own alone.
    expect((await asA.partners.list({})).items.map((x) => x.id)).toEqual([p]);
    expect((await asA.catalog.events({ partnerId: p })).items).toEqual([]);
    const serialized = JSON.stringify([
      await asA.webhooks.messages.list({ partnerId: p }),
      await asA.partners.keys.list({ partnerId: p }),
      await asA.market.listings({ partnerId: p }),
      await asA.partnerUsers.list({ partnerId: p }),
    ]);
    for (const id of [b.partner.id, bMessage, bKeys[0].id, bUser.email]) expect(serialized).not.toContain(id);
    // Its own test twin is theirs too.
    expect(await asA.partners.testMode.get({ partnerId: p })).toMatchObject({ id: a.testPartner.id });
    // Staff-only procedures answer FORBIDDEN.
    await expect(asA.partners.create({ name: 'Mine now' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(asA.staff.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('the last owner', () => {
  // A partner of its own on a database of its own.
  const scratch = scratchDrizzleForFile('owners');

  it('two owners demoting and removing each other 20 times at once: one owner is left', async () => {
    await scratch.sql`insert into partners (id, name) values ('ptr_owners', 'Owners')`;
    const make = (tag: string) =>
      createPartnerUser(
        { email: `${tag}@owners.test`, password: 'owner password 1', role: 'owner', partnerId: 'ptr_owners' },
        scratch.db,
      );
    const [x, y] = [await make('x'), await make('y')];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => {
        const target = i % 2 ? x.id : y.id;
        return i % 4 < 2
          ? changePartnerUserRole({ partnerId: 'ptr_owners', userId: target, role: 'developer' }, scratch.db)
          : removePartnerUser('ptr_owners', target, scratch.db);
      }),
    );
    const owners = await scratch.sql`select id from staff_users where partner_id = 'ptr_owners' and role = 'owner'`;
    expect(owners).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected')
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          code: expect.stringMatching(/CONFLICT|NOT_FOUND/),
        });
    }
    // And a partner user can never be staff: the row's role is one of the partner roles.
    await expect(
      createStaff({ email: 'x@owners.test', password: 'owner password 1' }, scratch.db),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });
});
