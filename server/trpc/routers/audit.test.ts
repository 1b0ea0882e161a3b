import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { totpCode } from '@/server/lib/totp';
import { transaction } from '@/server/lib/transaction';
import { queueMail } from '@/server/modules/mail';
import { createStaff } from '@/server/modules/staff';
import { setEnvInFile } from '@/server/testing/env';
import { makePartner, pushEvent, testBanner, testShow } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { postRules } from '@/server/testing/market';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const OPS = { id: 'stf_audit_ops', email: 'audit-ops@encore.test', name: 'Ops', role: 'admin' as const };
const staff = createCaller({ staff: OPS });
const anonymous = createCaller({ staff: null });

setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
let jobs: ReturnType<typeof recordJobs>;
beforeEach(() => {
  jobs = recordJobs();
});
afterEach(() => jobs.restore());

/**
 * Every mutation of the dashboard API, and the action it records. A new mutation fails the first test
 * below until it is recorded here (and recorded in the log: the second test exercises it) or excluded
 * with its reason.
 */
const AUDITED: Record<string, string> = {
  'partners.create': 'partner.created',
  'partners.rename': 'partner.renamed',
  'partners.setLogo': 'partner.logo.updated',
  'partners.setSupport': 'partner.support.updated',
  'partners.setReturnOrigins': 'partner.return_origins.updated',
  'partners.setWidgetOrigins': 'partner.widget_origins.updated',
  'partners.setDisabled': 'partner.disabled',
  'partners.setPrimarySalesFee': 'partner.fees.updated',
  'partners.keys.create': 'api_key.created',
  'partners.keys.revoke': 'api_key.revoked',
  'partners.publishableKeys.rotate': 'publishable_key.rotated',
  'partners.testMode.wipe': 'test_data.wiped',
  'partners.integration.update': 'integration.updated',
  'webhooks.endpoint.upsert': 'webhook_endpoint.updated',
  'webhooks.endpoint.rotateSecret': 'webhook_endpoint.secret_rotated',
  'webhooks.messages.retryNow': 'webhook_message.replayed',
  'webhooks.messages.sendTest': 'webhook_message.test_sent',
  'market.terms.set': 'market.terms.updated',
  'market.refund': 'purchase.refunded',
  'banners.create': 'banner.created',
  'banners.update': 'banner.updated',
  'banners.delete': 'banner.deleted',
  'rules.save': 'rule.saved',
  'rules.delete': 'rule.deleted',
  'protection.setPartner': 'protection.partner.updated',
  'protection.setScope': 'protection.event.updated',
  'channels.create': 'channel.created',
  'channels.update': 'channel.updated',
  'channels.setDisabled': 'channel.disabled',
  'channels.rotateSecret': 'channel.secret_rotated',
  'channels.sendTest': 'channel.test_sent',
  'staff.invite': 'staff.invited',
  'staff.revokeInvitation': 'staff.invitation_revoked',
  'staff.remove': 'staff.removed',
  'staff.changeRole': 'staff.role_changed',
  'partnerUsers.invite': 'partner_user.invited',
  'partnerUsers.acceptInvitation': 'partner_user.joined',
  'partnerUsers.changeRole': 'partner_user.role_changed',
  'partnerUsers.remove': 'partner_user.removed',
  'partnerUsers.revokeInvitation': 'partner_user.invitation_revoked',
  'staff.endSessions': 'staff.sessions_ended',
  'staff.changePassword': 'staff.password_changed',
  'staff.acceptInvitation': 'staff.joined',
  'twoFactor.enable': 'two_factor.enabled',
  'twoFactor.disable': 'two_factor.disabled',
  'mail.resend': 'mail.resent',
  'opsSearch.endSessions': 'fan.sessions_ended',
};

/** Mutations that change no configuration and are no staff decision over a partner's money or access. */
const NOT_AUDITED: Record<string, string> = {
  'partners.integration.testVerification': "a test call to the partner's verification URL; nothing is stored",
  'partners.integration.fetchFeedNow': "reads the partner's feed and shows a summary; nothing is stored",
  'partners.integration.pullFeedNow':
    "applies the partner's own feed as the schedule does; its run is recorded on the integration (last run, last error)",
  'channels.startPayoutSetup':
    "opens the channel's payout onboarding at the payment provider; the account is the provider's record",
  'setup.createFirstAdmin': 'first-run setup before anyone can sign in; works once, while no staff exists',
  'twoFactor.begin':
    "a member's own secret waiting for its first code; it changes nothing until twoFactor.enable, which is recorded",
};

/** Exercised elsewhere, with the record asserted there. */
const EXERCISED_ELSEWHERE: Record<string, string> = {
  'market.refund': 'server/trpc/routers/market.test.ts (needs a paid purchase)',
  'partnerUsers.invite': 'server/trpc/partner-users.test.ts (partner_user.invited)',
  'partnerUsers.acceptInvitation': 'server/trpc/partner-users.test.ts (partner_user.joined)',
  'partnerUsers.changeRole': 'server/trpc/partner-users.test.ts (partner_user.role_changed)',
  'partnerUsers.remove': 'server/trpc/partner-users.test.ts (partner_user.removed)',
  'partnerUsers.revokeInvitation': 'server/trpc/partner-users.test.ts (partner_user.invitation_revoked)',
};

function mutationPaths(): string[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(procedures)
    .filter(([, p]) => p._def.type === 'mutation')
    .map(([path]) => path)
    .sort();
}

async function latest(partnerId: string | undefined, action: string) {
  const { items } = await staff.audit.list({ partnerId, action, limit: 1 });
  return items[0];
}

describe('audit router', () => {
  it('classifies every mutation of the dashboard API: recorded or excluded with a reason', () => {
    const paths = mutationPaths();
    expect(paths.length).toBeGreaterThan(30);
    const unclassified = paths.filter((p) => !(p in AUDITED) && !(p in NOT_AUDITED));
    expect(unclassified, 'add each to AUDITED (and record it) or to NOT_AUDITED with why').toEqual([]);
    // No stale entries either.
    expect([...Object.keys(AUDITED), ...Object.keys(NOT_AUDITED)].filter((p) => !paths.includes(p))).toEqual([]);
  });

  it('is staff-only', async () => {
    await expect(anonymous.audit.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('records every audited mutation, with the signed-in member, before and after, and no secret', async () => {
    const exercised = new Set<string>();
    const check = async (path: string, partnerId: string | undefined, run: () => Promise<unknown>) => {
      const answer = await run();
      const entry = await latest(partnerId, AUDITED[path]);
      expect(entry, `${path} recorded ${AUDITED[path]}`).toBeDefined();
      exercised.add(path);
      return { answer, entry };
    };

    const created = await check('partners.create', undefined, () =>
      staff.partners.create({ name: `Audit ${Date.now()}` }),
    );
    const { partner, apiKey, channelsApiKey } = created.answer as Awaited<ReturnType<typeof staff.partners.create>>;
    const partnerId = partner.id;
    expect(created.entry).toMatchObject({ partnerId, actorLabel: OPS.email, actorKind: 'staff', actorId: OPS.id });
    const p = { partnerId };

    await check('partners.rename', partnerId, () => staff.partners.rename({ ...p, name: `${partner.name} B` }));
    await check('partners.setLogo', partnerId, () =>
      staff.partners.setLogo({ ...p, logoUrl: 'https://cdn.example.com/l.png' }),
    );
    await check('partners.setSupport', partnerId, () =>
      staff.partners.setSupport({ ...p, supportUrl: 'https://help.example.com', supportEmail: 'help@example.com' }),
    );
    await check('partners.setReturnOrigins', partnerId, () =>
      staff.partners.setReturnOrigins({ ...p, returnOrigins: ['https://tickets.example.com'] }),
    );
    const fee = await check('partners.setPrimarySalesFee', partnerId, () =>
      staff.partners.setPrimarySalesFee({ ...p, primarySalesFee: { type: 'FIXED', value: 2.5 } }),
    );
    expect(fee.entry).toMatchObject({
      action: 'partner.fees.updated',
      targetType: 'partner',
      targetId: partnerId,
      before: { primarySalesFee: null },
      after: { primarySalesFee: { type: 'FIXED', value: 2.5 } },
    });

    const key = await check('partners.keys.create', partnerId, () =>
      staff.partners.keys.create({ ...p, kind: 'partner', label: 'ci' }),
    );
    const { key: keyRecord, secret } = key.answer as { key: { id: string; prefix: string }; secret: string };
    expect(key.entry).toMatchObject({
      targetType: 'api_key',
      targetId: keyRecord.id,
      after: { prefix: keyRecord.prefix, label: 'ci' },
    });
    await check('partners.keys.revoke', partnerId, () => staff.partners.keys.revoke({ ...p, keyId: keyRecord.id }));
    // A publishable key is not a secret: its prefixes are recorded (the whole key is shown on the page anyway).
    const publishable = (await staff.partners.publishableKeys.get(p))!;
    const rotatedKey = await check('partners.publishableKeys.rotate', partnerId, () =>
      staff.partners.publishableKeys.rotate({ ...p, keyId: publishable.id }),
    );
    expect(rotatedKey.entry).toMatchObject({
      targetType: 'api_key',
      targetId: publishable.id,
      before: { id: publishable.id, prefix: publishable.prefix },
    });
    await check('partners.setWidgetOrigins', partnerId, () =>
      staff.partners.setWidgetOrigins({ ...p, widgetOrigins: ['https://shop.example.com'] }),
    );

    const headerSecret = 'partner-integration-secret-0123456789';
    const integration = await check('partners.integration.update', partnerId, () =>
      staff.partners.integration.update({ ...p, authHeaderName: 'X-Partner-Auth', authHeaderValue: headerSecret }),
    );
    expect(integration.entry).toMatchObject({
      before: { authHeaderName: null, authHeaderValueSet: false },
      after: { authHeaderName: 'X-Partner-Auth', authHeaderValueSet: true },
    });

    const endpoint = await check('webhooks.endpoint.upsert', partnerId, () =>
      staff.webhooks.endpoint.upsert({
        ...p,
        url: 'http://127.0.0.1:9/hooks',
        enabled: false,
        secretHeaderName: 'X-Hook-Secret',
        secretHeaderValue: 'hook-header-secret-value',
      }),
    );
    const signingSecret = (endpoint.answer as { signingSecret: string }).signingSecret;
    expect(signingSecret).toMatch(/^whsec_/);
    expect(endpoint.entry.after).toMatchObject({ url: 'http://127.0.0.1:9/hooks', signingSecret: '[redacted]' });
    const rotated = await check('webhooks.endpoint.rotateSecret', partnerId, () =>
      staff.webhooks.endpoint.rotateSecret(p),
    );
    expect(rotated.entry).toMatchObject({
      before: { signingSecretRotated: false },
      after: { signingSecretRotated: true },
    });
    const test = await check('webhooks.messages.sendTest', partnerId, () => staff.webhooks.messages.sendTest(p));
    const { messageId } = test.answer as { messageId: string };
    await check('webhooks.messages.retryNow', partnerId, () => staff.webhooks.messages.retryNow({ ...p, messageId }));

    await check('market.terms.set', partnerId, () =>
      staff.market.terms.set({
        ...p,
        buyerFeePercent: 5,
        buyerFeeFixed: 1,
        sellerFeePercent: 3,
        sellerFeeFixed: 0,
        payoutDelayDays: 2,
      }),
    );

    const bannerInput = testBanner(partnerId, {
      title: 'Sell safely',
      imageUrl: null,
      backgroundColor: null,
      textColor: null,
    });
    const banner = await check('banners.create', partnerId, () => staff.banners.create(bannerInput));
    const bannerId = (banner.answer as { id: string }).id;
    const updatedBanner = await check('banners.update', partnerId, () =>
      staff.banners.update({ ...bannerInput, bannerId, title: 'Sell here' }),
    );
    expect(updatedBanner.entry).toMatchObject({ before: { title: 'Sell safely' }, after: { title: 'Sell here' } });
    const deletedBanner = await check('banners.delete', partnerId, () => staff.banners.delete({ ...p, bannerId }));
    expect(deletedBanner.entry).toMatchObject({ before: { id: bannerId, title: 'Sell here' }, after: null });

    const ref = `evt-audit-${partnerId}`;
    await pushEvent(apiKey, ref, [testShow('1')]);
    const rule = await check('rules.save', partnerId, () =>
      staff.rules.save({ ...p, eventRef: ref, ruleType: 'P2P_TRANSFER', rules: { allowed: false } }),
    );
    const ruleId = (rule.answer as { id: string }).id;
    expect(rule.entry).toMatchObject({ before: null, after: { ruleType: 'P2P_TRANSFER', rules: { allowed: false } } });
    await check('rules.delete', partnerId, () => staff.rules.delete({ ...p, ruleId }));

    await check('protection.setPartner', partnerId, () =>
      staff.protection.setPartner({ ...p, unlockHours: 24, reissue: true }),
    );
    const eventPk = (await staff.catalog.events({ ...p })).items[0].id;
    const scope = await check('protection.setScope', partnerId, () =>
      staff.protection.setScope({ ...p, eventPk, showPk: null, active: false, unlockHours: null }),
    );
    expect(scope.entry).toMatchObject({
      targetId: eventPk,
      before: { event: { active: null } },
      after: { event: { active: false } },
    });

    const channel = await check('channels.create', partnerId, () => staff.channels.create({ ...p, name: 'Hub' }));
    const channelId = (channel.answer as { id: string }).id;
    const c = { ...p, channelId };
    await check('channels.update', partnerId, () => staff.channels.update({ ...c, name: 'Hub 2' }));
    await check('channels.setDisabled', partnerId, () => staff.channels.setDisabled({ ...c, disabled: true }));
    await check('channels.rotateSecret', partnerId, () => staff.channels.rotateSecret(c));
    await check('channels.sendTest', partnerId, () => staff.channels.sendTest(c));

    // Only the disable is recorded as such; enabling again is its own action.
    await staff.partners.setDisabled({ ...p, disabled: true });
    expect(await latest(partnerId, 'partner.disabled')).toBeDefined();
    exercised.add('partners.setDisabled');
    await staff.partners.setDisabled({ ...p, disabled: false });
    expect(await latest(partnerId, 'partner.enabled')).toMatchObject({ after: { disabledAt: null } });

    // Staff members: global entries (no partner).
    const email = `audit-member-${Date.now()}@encore.test`;
    const invited = await check('staff.invite', undefined, () => staff.staff.invite({ email, role: 'admin' }));
    const { token, invitation } = invited.answer as { token: string; invitation: { id: string } };
    expect(invited.entry).toMatchObject({ partnerId: null, targetId: invitation.id, after: { email } });
    const joined = await check('staff.acceptInvitation', undefined, () =>
      staff.staff.acceptInvitation({ token, name: 'New', password: 'a long password 1' }),
    );
    expect(joined.entry).toMatchObject({ actorKind: 'system', after: { email } });
    // Another admin, so the joined one is not the last.
    await createStaff({ email: `admin-${email}`, password: 'a long password 1', role: 'admin' }, getDb());
    const promoted = await check('staff.changeRole', undefined, () =>
      staff.staff.changeRole({ staffId: joined.entry.targetId, role: 'finance' }),
    );
    expect(promoted.entry).toMatchObject({
      partnerId: null,
      targetId: joined.entry.targetId,
      before: { email, role: 'admin' },
      after: { email, role: 'finance' },
    });
    const again = await staff.staff.invite({ email: `x-${email}`, role: 'admin' });
    await check('staff.revokeInvitation', undefined, () =>
      staff.staff.revokeInvitation({ invitationId: again.invitation.id }),
    );
    // Someone must stay: this member changes their password below.
    const member = await createStaff({ email: `pw-${email}`, password: 'old password 123' }, getDb());
    const removed = await check('staff.remove', undefined, () =>
      staff.staff.remove({ staffId: joined.entry.targetId }),
    );
    expect(removed.entry).toMatchObject({ before: { email }, after: null });

    const asMember = createCaller({ staff: { id: member.id, email: member.email, name: '', role: 'admin' } });
    await asMember.staff.changePassword({ currentPassword: 'old password 123', newPassword: 'new password 456' });
    const pw = await latest(undefined, 'staff.password_changed');
    expect(pw).toMatchObject({ actorLabel: member.email, targetId: member.id, after: { passwordChanged: true } });
    exercised.add('staff.changePassword');
    await check('staff.endSessions', undefined, () => staff.staff.endSessions({ staffId: member.id }));
    // Two-factor sign-in: the member's own; the secret is in the answer of begin only, never in the log.
    const { secret: totpSecret } = await asMember.twoFactor.begin();
    const enabled = await check('twoFactor.enable', undefined, () =>
      asMember.twoFactor.enable({ code: totpCode(totpSecret, Date.now()) }),
    );
    expect(enabled.entry).toMatchObject({ actorLabel: member.email, targetId: member.id, after: { twoFactor: true } });
    // The next step's code: the one just used is spent.
    await check('twoFactor.disable', undefined, () =>
      asMember.twoFactor.disable({ code: totpCode(totpSecret, Date.now() + 30_000) }),
    );

    // Support's actions on a fan: ending their sessions at the partner, resending a mail (the invitation's).
    const ended = await check('opsSearch.endSessions', partnerId, () =>
      staff.opsSearch.endSessions({ partnerId, email: 'Fan@Example.com' }),
    );
    expect(ended.entry).toMatchObject({ actorLabel: OPS.email, targetType: 'fan', targetId: 'fan@example.com' });
    const mailId = await transaction(
      (work) =>
        queueMail(work, {
          partnerId,
          to: 'fan@example.com',
          kind: 'signInLink',
          locale: 'en',
          data: { partnerName: partner.name, url: 'http://encore.test/auth/redeem?token=x&next=%2Fme', minutes: 15 },
        }),
      getDb(),
    );
    const resent = await check('mail.resend', partnerId, () => staff.mail.resend({ id: mailId }));
    expect(resent.entry).toMatchObject({ actorLabel: OPS.email, targetType: 'mail', targetId: mailId });

    // Test mode: wiping the twin's data is recorded on the twin, with what each table lost.
    const twin = await staff.partners.testMode.get(p);
    expect(twin?.id).toMatch(/^ptr_/);
    const wiped = await check('partners.testMode.wipe', twin!.id, () =>
      staff.partners.testMode.wipe({ testPartnerId: twin!.id }),
    );
    expect(wiped.entry).toMatchObject({ targetType: 'partner', targetId: twin!.id, after: { events: 0 } });

    // Nothing secret is anywhere in the partner's log, nor in the staff entries.
    const all = JSON.stringify([
      ...(await staff.audit.list({ partnerId, limit: 100 })).items,
      ...(await staff.audit.list({ action: 'staff.', limit: 100 })).items,
      ...(await staff.audit.list({ action: 'two_factor.', limit: 100 })).items,
    ]);
    for (const s of [
      apiKey,
      channelsApiKey,
      secret,
      headerSecret,
      signingSecret,
      'hook-header-secret-value',
      token,
      'new password 456',
      totpSecret,
    ])
      expect(all).not.toContain(s);

    const missing = Object.keys(AUDITED).filter((path) => !exercised.has(path) && !(path in EXERCISED_ELSEWHERE));
    expect(missing).toEqual([]);
  });

  it('records nothing when the change is refused', async () => {
    const { partner } = await makePartner('Audit refused');
    await expect(
      staff.partners.setReturnOrigins({ partnerId: partner.id, returnOrigins: ['ftp://nope.example.com'] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(staff.partners.keys.revoke({ partnerId: partner.id, keyId: 'key_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await staff.audit.list({ partnerId: partner.id })).items).toEqual([]);
  });

  it("records the partner's rule changes through the API with the key's prefix, never the key", async () => {
    const { partner, apiKey } = await makePartner('Audit API rules');
    const ref = `evt-api-${partner.id}`;
    await pushEvent(apiKey, ref, [testShow('1')]);
    await postRules(apiKey, [{ externalReferenceEventId: ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const entry = await latest(partner.id, 'rules.applied');
    expect(entry).toMatchObject({ actorKind: 'partner_key', targetId: ref, after: { applied: 1 } });
    expect(entry.actorLabel).toBe(apiKey.slice(0, entry.actorLabel.length));
    expect(entry.actorLabel.length).toBeLessThan(20);
    expect(JSON.stringify(entry)).not.toContain(apiKey);
  });

  it('filters one partner from another', async () => {
    const a = await makePartner('Audit A');
    const b = await makePartner('Audit B');
    await staff.partners.rename({ partnerId: a.partner.id, name: `${a.partner.name}!` });
    expect((await staff.audit.list({ partnerId: b.partner.id })).items).toEqual([]);
    expect((await staff.audit.list({ partnerId: a.partner.id })).items.map((i) => i.action)).toEqual([
      'partner.renamed',
    ]);
  });
});
