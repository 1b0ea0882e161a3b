import dns from 'node:dns';
import os from 'node:os';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import superjson from 'superjson';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { isPrivateAddress } from '@/server/lib/outbound';
import { setEnv } from '@/server/testing/env';
import { FakePartner } from '@/server/testing/fake-partner';
import { makePartner } from '@/server/testing/fixtures';
import { appRouter } from '@/server/trpc/router';
import { getIntegration, loadIntegration, maskSecret, recordFeedRun, updateIntegration } from './integration';

let fake: FakePartner;
let restoreEnv: (() => void) | undefined;
beforeAll(async () => {
  fake = await FakePartner.start();
});
afterEach(() => {
  restoreEnv?.();
  restoreEnv = undefined;
});
afterAll(() => fake.close());

const allowPrivate = () => (restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' }));
const refusePrivate = () => (restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined }));

const hostname = os.hostname();
const ownNameIsPrivate = await dns.promises
  .lookup(hostname, { all: true })
  .then((list) => list.length > 0 && list.every((a) => isPrivateAddress(a.address)))
  .catch(() => false);

async function appError(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

async function zodMessages(p: Promise<unknown>): Promise<string[]> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'ZodError' });
  return (err as { issues: { message: string }[] }).issues.map((i) => i.message);
}

const SECRET = 'tok_live_9f8e7d6c5b4aXYZW';

describe('integration settings', () => {
  it('answers defaults for a partner never configured, and 404 for an unknown partner', async () => {
    const { partner } = await makePartner('Fresh');
    const s = await getIntegration(partner.id, getDb());
    expect(s).toMatchObject({
      partnerId: partner.id,
      verificationUrl: null,
      verificationFieldMap: {},
      feedUrl: null,
      feedIntervalMinutes: 15,
      authHeaderName: null,
      authHeaderValueSet: false,
      authHeaderValueHint: null,
      feedNextRunAt: null,
      updatedAt: null,
    });
    expect(await loadIntegration(partner.id, getDb())).toBeNull();
    expect((await appError(getIntegration('ptr_missing', getDb()))).code).toBe('NOT_FOUND');
  });

  it('saves the settings and never reads the auth header value back, only a masked hint', async () => {
    allowPrivate();
    const { partner } = await makePartner('Save');
    const saved = await updateIntegration(
      {
        partnerId: partner.id,
        verificationUrl: `${fake.origin}/api/`,
        verificationFieldMap: { email: 'userEmail', id: 'ticketId' },
        feedUrl: `${fake.origin}/feed`,
        feedIntervalMinutes: 60,
        authHeaderName: 'X-Encore-Token',
        authHeaderValue: SECRET,
      },
      getDb(),
    );
    expect(saved).toMatchObject({
      verificationUrl: `${fake.origin}/api/`,
      verificationFieldMap: { email: 'userEmail', id: 'ticketId' },
      feedUrl: `${fake.origin}/feed`,
      feedIntervalMinutes: 60,
      authHeaderName: 'X-Encore-Token',
      authHeaderValueSet: true,
      authHeaderValueHint: '…XYZW',
    });
    const read = await getIntegration(partner.id, getDb());
    expect(read).toEqual(saved);
    expect(JSON.stringify(read)).not.toContain(SECRET.slice(0, 10));
    expect((await loadIntegration(partner.id, getDb()))?.authHeaderValue).toBe(SECRET);
  });

  it('gives no hint for short secrets', () => {
    expect(maskSecret('short-val')).toBeNull();
    expect(maskSecret('twelve-chars')).toBe('…hars');
    expect(maskSecret(null)).toBeNull();
  });

  it('keeps the stored secret when an update omits it, and clears it only when asked', async () => {
    allowPrivate();
    const { partner } = await makePartner('Keep');
    await updateIntegration({ partnerId: partner.id, authHeaderName: 'X-Key', authHeaderValue: SECRET }, getDb());

    await updateIntegration({ partnerId: partner.id, authHeaderName: 'X-Other-Key', feedIntervalMinutes: 5 }, getDb());
    let row = await loadIntegration(partner.id, getDb());
    expect(row).toMatchObject({ authHeaderName: 'X-Other-Key', authHeaderValue: SECRET, feedIntervalMinutes: 5 });

    // A value without its name (or the reverse) is refused, naming the missing field.
    const noValue = await appError(updateIntegration({ partnerId: partner.id, authHeaderValue: null }, getDb()));
    expect(noValue.details?.[0].path).toBe('authHeaderValue');
    expect((await loadIntegration(partner.id, getDb()))?.authHeaderValue).toBe(SECRET);

    // Removing the header (name null) takes the secret with it.
    const cleared = await updateIntegration(
      { partnerId: partner.id, authHeaderName: null, authHeaderValue: null },
      getDb(),
    );
    expect(cleared).toMatchObject({ authHeaderName: null, authHeaderValueSet: false, authHeaderValueHint: null });
    row = await loadIntegration(partner.id, getDb());
    expect(row?.authHeaderValue).toBeNull();

    const noName = await appError(updateIntegration({ partnerId: partner.id, authHeaderValue: SECRET }, getDb()));
    expect(noName.details?.[0].path).toBe('authHeaderName');

    await updateIntegration({ partnerId: partner.id, authHeaderName: 'X-Key', authHeaderValue: SECRET }, getDb());
    await updateIntegration({ partnerId: partner.id, authHeaderName: '' }, getDb());
    expect(await loadIntegration(partner.id, getDb())).toMatchObject({ authHeaderName: null, authHeaderValue: null });
  });

  it('treats an empty URL as none', async () => {
    allowPrivate();
    const { partner } = await makePartner('Empty');
    await updateIntegration(
      { partnerId: partner.id, verificationUrl: fake.origin, feedUrl: `${fake.origin}/feed` },
      getDb(),
    );
    const s = await updateIntegration({ partnerId: partner.id, verificationUrl: '  ', feedUrl: '' }, getDb());
    expect(s).toMatchObject({ verificationUrl: null, feedUrl: null, feedNextRunAt: null });
  });

  it('validates the feed interval (1..1440 whole minutes)', async () => {
    const { partner } = await makePartner('Interval');
    expect(await zodMessages(updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 0 }, getDb()))).toEqual([
      'At least 1 minute',
    ]);
    expect(await zodMessages(updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 1441 }, getDb()))).toEqual(
      ['At most 1440 minutes (one day)'],
    );
    expect(await zodMessages(updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 1.5 }, getDb()))).toEqual([
      'Whole minutes only',
    ]);
    expect(
      (await updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 1 }, getDb())).feedIntervalMinutes,
    ).toBe(1);
    expect(
      (await updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 1440 }, getDb())).feedIntervalMinutes,
    ).toBe(1440);
  });

  it('validates the field map: targets must be our field names, each at most once', async () => {
    const { partner } = await makePartner('Map');
    const bad = await zodMessages(
      updateIntegration({ partnerId: partner.id, verificationFieldMap: { id: 'ticketNumber' as 'ticketId' } }, getDb()),
    );
    expect(bad[0]).toMatch(/^Map to one of: userEmail, tickets, ticketId/);
    const twice = await zodMessages(
      updateIntegration({ partnerId: partner.id, verificationFieldMap: { id: 'ticketId', ref: 'ticketId' } }, getDb()),
    );
    expect(twice).toEqual(['Both “id” and “ref” map to ticketId']);
    const ok = await updateIntegration({ partnerId: partner.id, verificationFieldMap: { mail: 'userEmail' } }, getDb());
    expect(ok.verificationFieldMap).toEqual({ mail: 'userEmail' });
  });

  it('validates the auth header name and value', async () => {
    const { partner } = await makePartner('Header');
    const id = partner.id;
    expect(await zodMessages(updateIntegration({ partnerId: id, authHeaderName: 'X Token' }, getDb()))).toEqual([
      'Not a valid HTTP header name',
    ]);
    expect(await zodMessages(updateIntegration({ partnerId: id, authHeaderName: 'Host' }, getDb()))).toEqual([
      'Encore sets this header itself; choose another name',
    ]);
    expect(
      await zodMessages(updateIntegration({ partnerId: id, authHeaderName: 'cache-control' }, getDb())),
    ).toHaveLength(1);
    expect(
      await zodMessages(
        updateIntegration({ partnerId: id, authHeaderName: 'X-T', authHeaderValue: 'a\r\nb: c' }, getDb()),
      ),
    ).toEqual(['Header values may contain printable ASCII characters only']);
    expect(await loadIntegration(id, getDb())).toBeNull();
  });

  describe('URL rules', () => {
    it.each([
      ['http://127.0.0.1:8080/api', /private or reserved address \(127\.0\.0\.1\)/],
      ['http://10.0.0.5/api', /private or reserved address \(10\.0\.0\.5\)/],
      ['http://169.254.169.254/latest', /private or reserved address \(169\.254\.169\.254\)/],
      ['http://localhost:3000/api', /local host name \(localhost\)/],
      ['ftp://partner.example/', /must use https/],
      ['partner.example/api', /Not a valid URL/],
    ])('refuses %s with a clear message naming the field when private URLs are not allowed', async (url, message) => {
      refusePrivate();
      const { partner } = await makePartner('Refuse');
      for (const field of ['verificationUrl', 'feedUrl'] as const) {
        const err = await appError(updateIntegration({ partnerId: partner.id, [field]: url }, getDb()));
        expect(err.code).toBe('BAD_REQUEST');
        expect(err.message).toMatch(message);
        expect(err.details).toEqual([{ path: field, message: err.message }]);
      }
      expect(await loadIntegration(partner.id, getDb())).toBeNull();
    });

    it.runIf(ownNameIsPrivate)(`refuses a name that resolves to loopback (${hostname})`, async () => {
      refusePrivate();
      const { partner } = await makePartner('Hosts');
      const err = await appError(
        updateIntegration({ partnerId: partner.id, verificationUrl: `https://${hostname}/` }, getDb()),
      );
      expect(err.message).toContain(`${hostname} resolves to a private or reserved address`);
    });

    it('requires https in production', async () => {
      restoreEnv = setEnv({ NODE_ENV: 'production', ALLOW_PRIVATE_PARTNER_URLS: undefined });
      const { partner } = await makePartner('Prod');
      const err = await appError(
        updateIntegration({ partnerId: partner.id, feedUrl: 'http://partner.invalid/feed' }, getDb()),
      );
      expect(err.message).toBe('Partner URLs must use https');
      const ok = await updateIntegration({ partnerId: partner.id, feedUrl: 'https://partner.invalid/feed' }, getDb());
      expect(ok.feedUrl).toBe('https://partner.invalid/feed');
    });

    it('accepts the loopback fake partner when ALLOW_PRIVATE_PARTNER_URLS is set', async () => {
      allowPrivate();
      const { partner } = await makePartner('Allow');
      const s = await updateIntegration({ partnerId: partner.id, verificationUrl: fake.origin }, getDb());
      expect(s.verificationUrl).toBe(fake.origin);
    });
  });

  describe('feed schedule', () => {
    it('makes a new feed URL due now, counts a new interval from the last run, and clears it with the URL', async () => {
      allowPrivate();
      const { partner } = await makePartner('Schedule');
      const before = Date.now();
      const s1 = await updateIntegration({ partnerId: partner.id, feedUrl: `${fake.origin}/feed` }, getDb());
      expect(s1.feedNextRunAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(s1.feedNextRunAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

      const ran = await recordFeedRun(partner.id, 'boom', getDb());
      expect(ran.feedLastError).toBe('boom');
      expect(ran.feedNextRunAt!.getTime() - ran.feedLastRunAt!.getTime()).toBe(15 * 60_000);

      const s2 = await updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 90 }, getDb());
      expect(s2.feedNextRunAt!.getTime() - s2.feedLastRunAt!.getTime()).toBe(90 * 60_000);
      expect(s2.feedLastError).toBe('boom');

      // Unrelated changes leave the schedule alone.
      const s3 = await updateIntegration({ partnerId: partner.id, verificationUrl: fake.origin }, getDb());
      expect(s3.feedNextRunAt).toEqual(s2.feedNextRunAt);

      // The old URL's error does not stick to a new URL.
      const s4 = await updateIntegration({ partnerId: partner.id, feedUrl: `${fake.origin}/feed2` }, getDb());
      expect(s4.feedLastError).toBeNull();

      const s5 = await updateIntegration({ partnerId: partner.id, feedUrl: null }, getDb());
      expect(s5.feedNextRunAt).toBeNull();
    });
  });

  it('applies concurrent partial updates one after the other, losing neither', async () => {
    allowPrivate();
    const { partner } = await makePartner('Concurrent');
    for (let i = 1; i <= 5; i++) {
      await Promise.all([
        updateIntegration({ partnerId: partner.id, verificationUrl: `${fake.origin}/v${i}` }, getDb()),
        updateIntegration({ partnerId: partner.id, feedIntervalMinutes: 10 + i }, getDb()),
        updateIntegration({ partnerId: partner.id, verificationFieldMap: { [`f${i}`]: 'ticketId' } }, getDb()),
      ]);
      expect(await getIntegration(partner.id, getDb())).toMatchObject({
        verificationUrl: `${fake.origin}/v${i}`,
        feedIntervalMinutes: 10 + i,
        verificationFieldMap: { [`f${i}`]: 'ticketId' },
      });
    }
  });
});

describe('tRPC partners.integration', () => {
  const staff = { id: 'stf_test', email: 'staff@encore.test', name: 'Staff', role: 'admin' as const };

  /** One call over the real tRPC fetch handler, so the error formatter runs as in the dashboard. */
  async function call(path: string, input: unknown, opts: { signedIn?: boolean; query?: boolean } = {}) {
    const body = JSON.stringify(superjson.serialize(input));
    const req = opts.query
      ? new Request(`http://encore.test/api/trpc/${path}?input=${encodeURIComponent(body)}`)
      : new Request(`http://encore.test/api/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req,
      router: appRouter,
      createContext: () => ({ staff: opts.signedIn === false ? null : staff }),
    });
    const json = (await res.json()) as {
      result?: { data: Parameters<typeof superjson.deserialize>[0] };
      error?: { json: { message: string; data: { code: string; fieldErrors: Record<string, string[]> | null } } };
    };
    return {
      status: res.status,
      data: json.result ? superjson.deserialize<Record<string, unknown>>(json.result.data) : null,
      error: json.error?.json ?? null,
    };
  }

  it('requires a signed-in staff member', async () => {
    const { partner } = await makePartner('Trpc auth');
    const res = await call('partners.integration.get', { partnerId: partner.id }, { signedIn: false, query: true });
    expect(res.status).toBe(401);
    expect(res.error?.data.code).toBe('UNAUTHORIZED');
  });

  it('reads and updates settings, with URL problems as field errors for the form', async () => {
    refusePrivate();
    const { partner } = await makePartner('Trpc');
    const bad = await call('partners.integration.update', { partnerId: partner.id, feedUrl: 'http://10.0.0.5/feed' });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors).toEqual({
      feedUrl: ['Partner URL points at a private or reserved address (10.0.0.5)'],
    });

    const zodBad = await call('partners.integration.update', { partnerId: partner.id, feedIntervalMinutes: 0 });
    expect(zodBad.error?.data.fieldErrors).toEqual({ feedIntervalMinutes: ['At least 1 minute'] });

    const ok = await call('partners.integration.update', {
      partnerId: partner.id,
      authHeaderName: 'X-Key',
      authHeaderValue: SECRET,
    });
    expect(ok.data).toMatchObject({ authHeaderValueSet: true, authHeaderValueHint: '…XYZW' });
    const read = await call('partners.integration.get', { partnerId: partner.id }, { query: true });
    expect(read.data).toMatchObject({ authHeaderName: 'X-Key', authHeaderValueSet: true });
    expect(JSON.stringify(read)).not.toContain(SECRET);
  });

  it('answers a test verification against an unconfigured partner as a result, not a failure', async () => {
    const { partner } = await makePartner('Trpc test');
    const res = await call('partners.integration.testVerification', {
      partnerId: partner.id,
      userEmail: 'fan@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: false, error: { reason: 'not_configured' } });
    const feed = await call('partners.integration.fetchFeedNow', { partnerId: partner.id });
    expect(feed.data).toMatchObject({ ok: false, error: { reason: 'not_configured' } });
    const badEmail = await call('partners.integration.testVerification', { partnerId: partner.id, userEmail: 'nope' });
    expect(badEmail.error?.data.fieldErrors).toEqual({ userEmail: ['Enter an e-mail address'] });
  });
});
