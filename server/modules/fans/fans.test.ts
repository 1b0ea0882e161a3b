import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD, GET as redeemRoute } from '@/app/auth/redeem/route';
import { POST as signOutRoute } from '@/app/auth/signout/route';
import { GET as oneTimeTokenRoute } from '@/app/v1/auth/oneTimeToken/route';
import { getDb, getSql } from '@/db';
import { fanSessions, oneTimeTokens } from '@/db/schema/fans';
import { CLIENT_ADDRESS_HEADER } from '@/server/http/client-address';
import { REFERRER_POLICY } from '@/server/http/security-headers';
import { flushTouches } from '@/server/lib/deferred-touch';
import { sha256Hex } from '@/server/lib/ids';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import {
  currentFanSession,
  endFanSession,
  endFanSessionsOf,
  fanSessionFrom,
  startFanSession,
  sweepExpiredFanAuth,
} from './fan-sessions';
import { issueOneTimeToken, oneTimeTokenKind, redeemOneTimeToken, withOneTimeToken } from './one-time-tokens';
import { REDEEM_FAILURES_PER_CLIENT } from './sign-in-link';
import {
  EXPIRED_PATH,
  FAN_SESSION_COOKIE,
  getsFanLocale,
  ONE_TIME_TOKEN_PARAM,
  redeemRedirectFor,
  safeNextPath,
  TOO_MANY_PATH,
} from './urls';

const db = () => getDb();

async function tokenRow(token: string) {
  const [row] = await db()
    .select()
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, sha256Hex(token)));
  return row;
}

describe('one-time tokens', () => {
  it('are URL-safe, stored only as a SHA-256 hash, bound to the partner and the lower-cased e-mail', async () => {
    const partner = await makePartner('OTT issue');
    const token = await issueOneTimeToken(partner.partner.id, '  Ana.Garcia@Example.COM ', undefined, getDb());
    expect(token).toMatch(/^ott_[A-Za-z0-9_-]{65}$/);
    expect(encodeURIComponent(token)).toBe(token);
    // Its tag tells it from a guess without the database; change one character and it is a guess.
    expect(await oneTimeTokenKind(token)).toBe('issued');
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(await oneTimeTokenKind(flipped)).toBe('guess');
    expect(await oneTimeTokenKind(`${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`)).toBe(
      'guess',
    );
    expect(await oneTimeTokenKind(token.slice(0, 47))).toBe('untagged');
    const row = await tokenRow(token);
    expect(row).toMatchObject({ partnerId: partner.partner.id, email: 'ana.garcia@example.com', method: 'email' });
    expect(row.usedAt).toBeNull();
    // Nothing stored is the token itself.
    const [{ n }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(oneTimeTokens)
      .where(sql`${oneTimeTokens.tokenHash} = ${token} or ${oneTimeTokens.email} = ${token}`);
    expect(n).toBe(0);
    // 15 minutes by the database clock.
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(15 * 60 * 1000);
  });

  it('are each different', async () => {
    const partner = await makePartner('OTT distinct');
    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => issueOneTimeToken(partner.partner.id, 'fan@example.com', undefined, getDb())),
    );
    expect(new Set(tokens).size).toBe(20);
  });

  it('refuse a bad e-mail or method naming the field', async () => {
    const partner = await makePartner('OTT refuse');
    await expect(issueOneTimeToken(partner.partner.id, 'not-an-email', undefined, getDb())).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'user' }],
    });
    await expect(
      issueOneTimeToken(partner.partner.id, 'a@example.com', 'sms' as unknown as 'email', getDb()),
    ).rejects.toMatchObject({ status: 400, details: [{ path: 'method' }] });
  });

  it('work once', async () => {
    const partner = await makePartner('OTT once');
    const token = await issueOneTimeToken(partner.partner.id, 'Once@Example.com', undefined, getDb());
    expect(await redeemOneTimeToken(token, getDb())).toEqual({
      partnerId: partner.partner.id,
      email: 'once@example.com',
    });
    expect(await redeemOneTimeToken(token, getDb())).toBeNull();
    expect((await tokenRow(token)).usedAt).toBeInstanceOf(Date);
  });

  it('expire by the database clock', async () => {
    const partner = await makePartner('OTT expiry');
    const token = await issueOneTimeToken(partner.partner.id, 'late@example.com', undefined, getDb());
    await db()
      .update(oneTimeTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(oneTimeTokens.tokenHash, sha256Hex(token)));
    expect(await redeemOneTimeToken(token, getDb())).toBeNull();
    expect((await tokenRow(token)).usedAt).toBeNull();
  });

  it('refuse unknown and malformed tokens without error', async () => {
    for (const bad of ['', 'ott_', 'ott_' + 'x'.repeat(43), 'x'.repeat(10_000), "ott_'; drop table x; --", '\u0000']) {
      expect(await redeemOneTimeToken(bad, getDb())).toBeNull();
    }
  });

  it('50 concurrent redemptions of one token: exactly one succeeds', async () => {
    const partner = await makePartner('OTT race');
    const token = await issueOneTimeToken(partner.partner.id, 'race@example.com', undefined, getDb());
    const results = await Promise.all(Array.from({ length: 50 }, () => redeemOneTimeToken(token, getDb())));
    const wins = results.filter((r) => r !== null);
    expect(wins).toEqual([{ partnerId: partner.partner.id, email: 'race@example.com' }]);
    expect(results.filter((r) => r === null)).toHaveLength(49);
  });

  it('withOneTimeToken appends a working token and keeps the other parameters', async () => {
    const partner = await makePartner('OTT url');
    const url = await withOneTimeToken(
      'https://encore.test/market/evt_1?loginTrust%5BwithMethod%5D=email&lang=es',
      partner.partner.id,
      'Url@Example.com',
      getDb(),
    );
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/market/evt_1');
    expect(parsed.searchParams.get('lang')).toBe('es');
    expect(parsed.searchParams.get('loginTrust[withMethod]')).toBe('email');
    expect(await redeemOneTimeToken(parsed.searchParams.get('token')!, getDb())).toEqual({
      partnerId: partner.partner.id,
      email: 'url@example.com',
    });
  });
});

describe('fan sessions', () => {
  it('a page view notes the session as seen and writes nothing; the stamp is written off the request path', async () => {
    const a = await makePartner('Fans seen');
    const cookie = await startFanSession(a.partner.id, 'seen@example.com', getDb());
    const hash = sha256Hex(cookie);
    const seenAt = async () =>
      (await db().select().from(fanSessions).where(eq(fanSessions.tokenHash, hash)))[0].lastSeenAt.getTime();
    await db()
      .update(fanSessions)
      .set({ lastSeenAt: sql`now() - interval '2 minutes'` })
      .where(eq(fanSessions.tokenHash, hash));
    const before = await seenAt();
    expect(await fanSessionFrom(cookie, a.partner.id, getDb())).not.toBeNull();
    expect(await seenAt()).toBe(before);
    await flushTouches();
    expect(await seenAt()).toBeGreaterThan(before + 60_000);
  });

  it("open only their own partner's pages", async () => {
    const a = await makePartner('Fans A');
    const b = await makePartner('Fans B');
    const cookie = await startFanSession(a.partner.id, 'Fan@Example.com', getDb());
    expect(cookie).toMatch(/^fs_[A-Za-z0-9_-]{43}$/);
    expect(await fanSessionFrom(cookie, a.partner.id, getDb())).toMatchObject({
      partnerId: a.partner.id,
      email: 'fan@example.com',
    });
    expect(await fanSessionFrom(cookie, b.partner.id, getDb())).toBeNull();
    expect(await currentFanSession(cookie, getDb())).toMatchObject({ partnerId: a.partner.id });
    // Only the hash is stored.
    const [row] = await db()
      .select()
      .from(fanSessions)
      .where(eq(fanSessions.tokenHash, sha256Hex(cookie)));
    expect(row.tokenHash).not.toBe(cookie);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(7 * 86_400 * 1000);
  });

  it('end when signed out, when revoked, and when expired', async () => {
    const partner = await makePartner('Fans end');
    const pid = partner.partner.id;
    const one = await startFanSession(pid, 'end@example.com', getDb());
    expect(await endFanSession(one, getDb())).toBe(true);
    expect(await endFanSession(one, getDb())).toBe(false);
    expect(await fanSessionFrom(one, pid, getDb())).toBeNull();

    const two = await startFanSession(pid, 'end@example.com', getDb());
    const three = await startFanSession(pid, 'END@example.com', getDb());
    // The same fan at another partner, and another fan here, keep their sessions (staff end one partner's).
    const other = await makePartner('Fans end elsewhere');
    const elsewhere = await startFanSession(other.partner.id, 'end@example.com', getDb());
    const neighbour = await startFanSession(pid, 'neighbour@example.com', getDb());
    expect(await endFanSessionsOf(pid, 'End@Example.com', getDb())).toBe(2);
    expect(await fanSessionFrom(two, pid, getDb())).toBeNull();
    expect(await fanSessionFrom(three, pid, getDb())).toBeNull();
    expect(await fanSessionFrom(elsewhere, other.partner.id, getDb())).not.toBeNull();
    expect(await fanSessionFrom(neighbour, pid, getDb())).not.toBeNull();
    expect(await endFanSessionsOf(pid, 'end@example.com', getDb())).toBe(0);

    const four = await startFanSession(pid, 'late@example.com', getDb());
    await db()
      .update(fanSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(fanSessions.tokenHash, sha256Hex(four)));
    expect(await fanSessionFrom(four, pid, getDb())).toBeNull();

    for (const bad of [undefined, null, '', 'fs_x', 'x'.repeat(5000)])
      expect(await currentFanSession(bad, getDb())).toBeNull();
  });

  it('the sweep deletes expired tokens and ended or expired sessions, and keeps live ones', async () => {
    const partner = await makePartner('Fans sweep');
    const pid = partner.partner.id;
    const live = await issueOneTimeToken(pid, 's@example.com', undefined, getDb());
    const dead = await issueOneTimeToken(pid, 's@example.com', undefined, getDb());
    await db()
      .update(oneTimeTokens)
      .set({ expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(oneTimeTokens.tokenHash, sha256Hex(dead)));
    const open = await startFanSession(pid, 's@example.com', getDb());
    const ended = await startFanSession(pid, 's@example.com', getDb());
    await endFanSession(ended, getDb());
    const swept = await sweepExpiredFanAuth(getDb());
    expect(swept.tokens).toBeGreaterThanOrEqual(1);
    expect(swept.sessions).toBeGreaterThanOrEqual(1);
    expect(await tokenRow(dead)).toBeUndefined();
    expect(await tokenRow(live)).toBeDefined();
    expect(await fanSessionFrom(open, pid, getDb())).not.toBeNull();
    const [gone] = await db()
      .select()
      .from(fanSessions)
      .where(eq(fanSessions.tokenHash, sha256Hex(ended)));
    expect(gone).toBeUndefined();
  });
});

describe('GET /v1/auth/oneTimeToken', () => {
  const call = (key: string | null, query: string) =>
    oneTimeTokenRoute(apiRequest(`/v1/auth/oneTimeToken${query}`, { key }));

  it('answers a token that signs the fan in for the calling partner only', async () => {
    const a = await makePartner('OTT route A');
    const b = await makePartner('OTT route B');
    const res = await call(a.apiKey, '?user=Route%40Example.com&method=email');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 200, errors: null });
    expect(body.data).toMatch(/^ott_/);
    const fan = await redeemOneTimeToken(body.data, getDb());
    expect(fan).toEqual({ partnerId: a.partner.id, email: 'route@example.com' });
    const cookie = await startFanSession(fan!.partnerId, fan!.email, getDb());
    expect(await fanSessionFrom(cookie, b.partner.id, getDb())).toBeNull();
    // method is optional.
    expect((await call(b.apiKey, '?user=x%40example.com')).status).toBe(200);
  });

  it.each([
    ['', 'user'],
    ['?user=', 'user'],
    ['?user=not-an-email', 'user'],
    [`?user=${'a'.repeat(250)}%40example.com`, 'user'],
    ['?user=a%40example.com&method=sms', 'method'],
    ['?user=a%40example.com&method=EMAIL', 'method'],
    ['?user=a%40example.com&method=', 'method'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const partner = await makePartner('OTT route 400');
    const res = await call(partner.apiKey, query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.data).toBeNull();
    expect(body.errors.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field, in: 'query' })]),
    );
    if (field === 'method') expect(JSON.stringify(body.errors)).toContain('email');
  });

  it('answers 401 without a key', async () => {
    expect((await call(null, '?user=a%40example.com')).status).toBe(401);
  });
});

describe('redeeming too often from one client', () => {
  const from = (address: string, query: string, lang = 'en') =>
    redeemRoute(
      new NextRequest(`http://encore.test/auth/redeem${query}`, {
        headers: { [CLIENT_ADDRESS_HEADER]: address, 'accept-language': lang },
      }),
    );
  const freshAddress = (label: string) =>
    `203.0.113.${Math.floor(Math.random() * 250)}-${label}-${process.pid}-${Date.now()}`;
  const untaggedShape = () => `ott_${randomBytes(32).toString('base64url')}`;
  /** The shape of an issued token with a tag Encore never made. */
  const forged = () => `ott_${randomBytes(32).toString('base64url')}${randomBytes(16).toString('base64url')}`;

  /** Every statement the driver sends while `work` runs: whatever path a token takes, its hash is a parameter there. */
  async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
    const sent: string[] = [];
    const options = getSql().options;
    const before = options.debug;
    options.debug = (_connection, query, parameters) => sent.push(`${query} ${JSON.stringify(parameters)}`);
    try {
      return { result: await work(), sent };
    } finally {
      options.debug = before;
    }
  }
  const lookedUp = (sent: string[], tokens: string[]) =>
    tokens.filter((t) => sent.some((q) => q.includes('one_time_tokens') && q.includes(sha256Hex(t))));

  it('opens a good token whatever others tried from the same address; bad ones past 30 go to the too-many page', async () => {
    const partner = await makePartner('Redeem limit');
    const address = freshAddress('seq');
    // Good links do not count: a fan opening many of theirs is never limited.
    for (let i = 0; i < REDEEM_FAILURES_PER_CLIENT.limit + 5; i += 1) {
      const good = await issueOneTimeToken(partner.partner.id, `good${i}@example.com`, undefined, getDb());
      expect((await from(address, `?token=${good}`)).status).toBe(303);
    }
    // Strangers at the same address follow 300 bad links of every shape.
    const bad = Array.from({ length: 300 }, (_, i) => [untaggedShape(), forged(), `ott_guess${i}`][i % 3]);
    const answers = [];
    for (const token of bad) answers.push(await from(address, `?token=${token}&next=%2Fme`, 'es'));
    expect(answers.filter((r) => r.headers.get('location')!.startsWith('/auth/expired?'))).toHaveLength(30);
    const refused = answers.slice(REDEEM_FAILURES_PER_CLIENT.limit);
    expect(refused.every((r) => r.status === 303 && r.headers.get('location')!.startsWith(`${TOO_MANY_PATH}?`))).toBe(
      true,
    );
    const location = new URL(refused[0].headers.get('location')!, 'http://encore.test');
    expect(location.pathname).toBe(TOO_MANY_PATH);
    expect(Number(location.searchParams.get('minutes'))).toBeGreaterThanOrEqual(14);
    expect(location.searchParams.get('next')).toBe('/me');
    expect(refused[0].headers.get('cache-control')).toBe('no-store');
    expect(refused[0].headers.get('referrer-policy')).toBe('no-referrer');
    // next.config.ts's headers win over a route's own: there too, no referrer where the address has a token.
    expect(REFERRER_POLICY.tokenParam).toBe(ONE_TIME_TOKEN_PARAM);
    expect(REFERRER_POLICY.tokenInAddress.value).toBe('no-referrer');
    expect(refused[0].headers.get('set-cookie')).toBeNull();
    expect(await refused[0].text()).toBe('');

    // A fan's own link from the same address still opens.
    const token = await issueOneTimeToken(partner.partner.id, 'limited@example.com', undefined, getDb());
    const opened = await from(address, `?token=${token}&next=%2Fme`, 'es');
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/me');
    expect(opened.cookies.get(FAN_SESSION_COOKIE)?.value).toMatch(/^fs_/);
    // Used again, it is a genuine link: the expired page naming its partner, even over the limit.
    const again = await from(address, `?token=${token}&next=%2Fme`);
    expect(again.headers.get('location')).toBe(`/auth/expired?next=%2Fme&partner=${partner.partner.id}`);
  });

  it('40 bad tokens and one good one at once from one address: the good one opens, at most 30 bad ones are looked up', async () => {
    const partner = await makePartner('Redeem burst');
    const token = await issueOneTimeToken(partner.partner.id, 'burst@example.com', undefined, getDb());
    // The worst case: guesses of the untagged shape (tokens issued before tags), which only the table can tell.
    const bad = Array.from({ length: 40 }, untaggedShape);
    const address = freshAddress('burst');
    const { result, sent } = await statementsDuring(() =>
      Promise.all([token, ...bad].map((t) => from(address, `?token=${t}&next=%2Fme`))),
    );
    const [good, ...rest] = result;
    expect(good.headers.get('location')).toBe('/me');
    expect(good.cookies.get(FAN_SESSION_COOKIE)?.value).toMatch(/^fs_/);
    expect(lookedUp(sent, [token])).toEqual([token]);
    // At most the limit; exactly the limit here, which also shows the recording sees every look-up.
    expect(lookedUp(sent, bad).length).toBeLessThanOrEqual(REDEEM_FAILURES_PER_CLIENT.limit);
    expect(lookedUp(sent, bad)).toHaveLength(REDEEM_FAILURES_PER_CLIENT.limit);
    const pages = rest.map((r) => new URL(r.headers.get('location')!, 'http://encore.test').pathname);
    expect(pages.filter((p) => p === EXPIRED_PATH)).toHaveLength(REDEEM_FAILURES_PER_CLIENT.limit);
    expect(pages.filter((p) => p === TOO_MANY_PATH)).toHaveLength(40 - REDEEM_FAILURES_PER_CLIENT.limit);

    // Forged tags and other guesses are never looked up at all, and the good one still opens.
    const token2 = await issueOneTimeToken(partner.partner.id, 'burst2@example.com', undefined, getDb());
    const guesses = Array.from({ length: 40 }, (_, i) => (i % 2 ? forged() : `ott_guess${i}`));
    const second = await statementsDuring(() =>
      Promise.all([token2, ...guesses].map((t) => from(freshAddress('forged'), `?token=${t}`))),
    );
    expect(second.result[0].headers.get('location')).toBe('/me');
    expect(lookedUp(second.sent, guesses)).toEqual([]);
  });

  it('keeps the old rule for untagged tokens issued before tags: counted first, given back when good', async () => {
    const partner = await makePartner('Redeem untagged');
    const untagged = async (email: string) => {
      const token = untaggedShape();
      await db()
        .insert(oneTimeTokens)
        .values({
          tokenHash: sha256Hex(token),
          partnerId: partner.partner.id,
          email,
          method: 'email',
          expiresAt: sql`now() + interval '15 minutes'`,
        });
      return token;
    };
    const address = freshAddress('untagged');
    for (let i = 0; i < REDEEM_FAILURES_PER_CLIENT.limit + 5; i += 1)
      expect((await from(address, `?token=${await untagged(`u${i}@example.com`)}`)).headers.get('location')).toBe(
        '/me',
      );
    for (let i = 0; i < REDEEM_FAILURES_PER_CLIENT.limit; i += 1) await from(address, `?token=${untaggedShape()}`);
    const late = await untagged('late@example.com');
    const refused = await from(address, `?token=${late}`);
    expect(new URL(refused.headers.get('location')!, 'http://encore.test').pathname).toBe(TOO_MANY_PATH);
    // Left unspent: from another address it opens.
    expect((await from(`${address}-other`, `?token=${late}`)).headers.get('location')).toBe('/me');
  });
});

describe('redeeming on the web', () => {
  const redeem = (query: string, cookie?: string) =>
    redeemRoute(
      new NextRequest(`http://encore.test/auth/redeem${query}`, {
        headers: cookie ? { cookie: `${FAN_SESSION_COOKIE}=${cookie}` } : {},
      }),
    );

  it('sets an httpOnly, SameSite=Lax session cookie and goes on to the page', async () => {
    const partner = await makePartner('Redeem web');
    const token = await issueOneTimeToken(partner.partner.id, 'web@example.com', undefined, getDb());
    const res = await redeem(`?token=${token}&next=${encodeURIComponent('/market/evt_1?lang=es')}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/market/evt_1?lang=es');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(new RegExp(`^${FAN_SESSION_COOKIE}=fs_`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i); // plain http in tests
    const value = res.cookies.get(FAN_SESSION_COOKIE)!.value;
    expect(await fanSessionFrom(value, partner.partner.id, getDb())).toMatchObject({ email: 'web@example.com' });

    // The same link again lands on the expired page, naming the partner; the session stays.
    const again = await redeem(`?token=${token}&next=%2Fme`);
    expect(again.headers.get('location')).toBe(`/auth/expired?next=%2Fme&partner=${partner.partner.id}`);
    expect(again.headers.get('set-cookie')).toBeNull();

    // A new link replaces the browser's previous session.
    const other = await makePartner('Redeem web other');
    const next = await redeem(
      `?token=${await issueOneTimeToken(other.partner.id, 'web@example.com', undefined, getDb())}`,
      value,
    );
    expect(next.headers.get('location')).toBe('/me');
    expect(await currentFanSession(value, getDb())).toBeNull();
    const newValue = next.cookies.get(FAN_SESSION_COOKIE)!.value;
    expect(await fanSessionFrom(newValue, other.partner.id, getDb())).not.toBeNull();
    expect(await fanSessionFrom(newValue, partner.partner.id, getDb())).toBeNull();

    // Signing out ends it.
    const out = await signOutRoute(
      new NextRequest('http://encore.test/auth/signout', {
        method: 'POST',
        headers: { cookie: `${FAN_SESSION_COOKIE}=${newValue}` },
      }),
    );
    expect(out.status).toBe(303);
    expect(await currentFanSession(newValue, getDb())).toBeNull();
  });

  it('HEAD does not spend the token', async () => {
    const partner = await makePartner('Redeem head');
    const token = await issueOneTimeToken(partner.partner.id, 'head@example.com', undefined, getDb());
    expect(HEAD().status).toBe(204);
    expect((await redeem(`?token=${token}`)).headers.get('location')).toBe('/me');
  });

  it('never redirects off site', async () => {
    const partner = await makePartner('Redeem redirect');
    for (const next of [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      '/%0d%0aSet-Cookie:x',
      'javascript:alert(1)',
    ]) {
      const token = await issueOneTimeToken(partner.partner.id, 'r@example.com', undefined, getDb());
      const res = await redeem(`?token=${token}&next=${encodeURIComponent(next)}`);
      const location = res.headers.get('location')!;
      expect(location.startsWith('/') && !location.startsWith('//') && !location.includes('\\'), next).toBe(true);
      expect(new URL(location, 'http://encore.test').origin).toBe('http://encore.test');
    }
  });

  it('sends an unknown token to the expired page', async () => {
    const res = await redeem('?token=nonsense&next=%2Fmarket%2Fevt_1');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/auth/expired?next=%2Fmarket%2Fevt_1');
  });
});

describe('fan URL rules', () => {
  it('keep only same-site paths', () => {
    expect(safeNextPath('/market/evt_1?lang=es#x')).toBe('/market/evt_1?lang=es#x');
    for (const bad of [
      null,
      '',
      'me',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      '/a\nb',
      'javascript:x',
      '/.//evil.example',
      '/./\\evil.example',
      '/a/..//evil.example',
      '/%2e//evil.example',
    ]) {
      expect(safeNextPath(bad), String(bad)).toBe('/me');
    }
  });

  it('never answer a redirect that leaves the origin, whatever the encoding, slashes, backslashes or scheme', () => {
    const origin = 'http://encore.test';
    // Strings built from the pieces redirect tricks are made of, plus any string at all.
    const piece = fc.constantFrom(
      '/',
      '\\',
      '.',
      '..',
      '%2e',
      '%2f',
      '%5c',
      '%2F',
      '%5C',
      ':',
      '@',
      '?',
      '#',
      'evil.example',
      'http:',
      'https:',
      'javascript:',
      '\t',
      '\n',
      ' ',
      'a',
    );
    // A path start (as the checks want), then pieces: the shapes of `/.//host`, `/a/..//host`, `/%2e/\\host`.
    const tricky = fc
      .tuple(fc.constantFrom('/', '/.', '/..', '/a/..', '/%2e', '/.%2e', ''), fc.array(piece, { maxLength: 8 }))
      .map(([start, parts]) => start + parts.join(''));
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string(), fc.webUrl()), (next) => {
        const out = safeNextPath(next);
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        expect(new URL(out, origin).origin).toBe(origin);
      }),
      { numRuns: 5000 },
    );
  });

  it('send fan pages with a token, and only those, through the redeem route', () => {
    const r = redeemRedirectFor(new URL('http://encore.test/market/evt_1?lang=es&token=ott_abc'))!;
    expect(r.pathname).toBe('/auth/redeem');
    expect(r.searchParams.get('token')).toBe('ott_abc');
    expect(r.searchParams.get('next')).toBe('/market/evt_1?lang=es');
    expect(redeemRedirectFor(new URL('http://encore.test/me?token=t'))!.searchParams.get('next')).toBe('/me');
    for (const path of [
      '/market/evt_1',
      '/v1/me?token=x',
      '/dashboard?token=x',
      '/auth/redeem?token=x',
      '/api/trpc/x?token=x',
      '/docs?token=x',
    ]) {
      expect(redeemRedirectFor(new URL(`http://encore.test${path}`)), path).toBeNull();
    }
  });

  it('give the expired-link page a language without making /auth a place where tokens are redeemed', () => {
    expect(getsFanLocale('/auth/expired')).toBe(true);
    expect(getsFanLocale('/auth/too-many')).toBe(true);
    expect(getsFanLocale('/pay/pay_1')).toBe(true);
    for (const path of ['/auth/redeem', '/auth/signout', '/auth', '/v1/me', '/dashboard'])
      expect(getsFanLocale(path), path).toBe(false);
    expect(redeemRedirectFor(new URL('http://encore.test/auth/expired?token=ott_abc'))).toBeNull();
  });
});
