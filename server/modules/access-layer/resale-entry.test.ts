import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as resaleEntryGet, OPTIONS as resaleEntryOptions } from '@/app/v1/wrapper/accesslayer/resale-entry/route';
import { getDb } from '@/db';
import { sha256Hex } from '@/server/lib/ids';
import { issueOneTimeToken, redeemOneTimeToken } from '@/server/modules/fans';
import { createListing } from '@/server/modules/marketplace';
import { publishableKeyOf, updateIntegration } from '@/server/modules/partners';
import { apiRequest } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { setEnvInFile } from '@/server/testing/env';

/*
 * GET /v1/wrapper/accesslayer/resale-entry, what `<encore-sell>` draws: the fan a one-time
 * token names (read, not spent), their tickets by show with each one's status, CTAs and reasons.
 */

// A loopback verification URL for the partner that does not answer.
setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });

const SELLER = 'entry-seller@example.com';
const SHOP = 'https://shop.entry.example';

let m: { partnerId: string; key: string; ref: string };
let pk: string;
let listingId: string;

async function entry(query: string, key = pk, origin: string | undefined = SHOP) {
  const res = await resaleEntryGet(
    apiRequest(`/v1/wrapper/accesslayer/resale-entry?${query}`, { key, headers: origin ? { origin } : {} }),
  );
  return { status: res.status, headers: res.headers, body: await res.json() };
}

beforeAll(async () => {
  m = await sellerMarket({ seller: SELLER, name: 'Entry', tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }] });
  pk = (await publishableKeyOf(m.partnerId, getDb()))!.key;
  listingId = (
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 }, getDb())
  ).id;
}, 60_000);

describe('GET /v1/wrapper/accesslayer/resale-entry', () => {
  it("answers the fan's tickets by show, each with its status and links, and leaves the token unspent", async () => {
    const token = await issueOneTimeToken(m.partnerId, SELLER, 'email', getDb());
    const res = await entry(`token=${token}&lang=es`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    const data = res.body.data;
    expect(data.unavailable).toBe(false);
    expect(data.url).toMatch(new RegExp(`/resale/${m.partnerId}\\?lang=es$`));
    expect(data.shows).toHaveLength(1);
    expect(data.shows[0]).toMatchObject({ eventId: m.ref, showId: '1', eventTitle: m.ref });
    const [t1, t2] = data.shows[0].tickets;
    expect(t1).toMatchObject({ ticketId: 'T1', status: 'SELLABLE', reasons: [] });
    expect(t1.callToActions).toEqual([
      { key: 'SELL', text: 'Vender', url: expect.stringMatching(/\/sell\/tkt_/), enabled: true },
    ]);
    expect(t2).toMatchObject({ ticketId: 'T2', status: 'FOR_SALE' });
    expect(t2.callToActions[0].url).toContain(`/listing/${listingId}?lang=es`);
    expect(t2.reasons).toEqual([{ code: 'LISTED', text: expect.any(String) }]);
    // No autologin: the links carry no token; the fan's token still signs them in once.
    expect(JSON.stringify(data)).not.toContain('token=');
    expect(await redeemOneTimeToken(token, getDb())).toEqual({ partnerId: m.partnerId, email: SELLER });
  });

  it('with autologin=true, every link carries a fresh token of its own for the fan', async () => {
    const token = await issueOneTimeToken(m.partnerId, SELLER, 'email', getDb());
    const { body } = await entry(`token=${token}&autologin=true`);
    const urls = [
      body.data.url,
      ...body.data.shows[0].tickets.flatMap((t: { callToActions: { url: string }[] }) =>
        t.callToActions.map((c) => c.url),
      ),
    ];
    const tokens = urls.map((u: string) => new URL(u).searchParams.get('token'));
    expect(tokens).toHaveLength(3);
    expect(new Set([...tokens, token]).size).toBe(4);
    for (const t of tokens)
      expect(await redeemOneTimeToken(t!, getDb())).toEqual({ partnerId: m.partnerId, email: SELLER });
  });

  it('a token unknown, used, expired or of another partner: the same 404, nothing about it', async () => {
    const other = await sellerMarket({ seller: SELLER, name: 'Entry other' });
    const foreign = await issueOneTimeToken(other.partnerId, SELLER, 'email', getDb());
    const used = await issueOneTimeToken(m.partnerId, SELLER, 'email', getDb());
    await redeemOneTimeToken(used, getDb());
    const expired = await issueOneTimeToken(m.partnerId, SELLER, 'email', getDb());
    await getDb().execute(
      sql`update one_time_tokens set expires_at = now() - interval '1 second' where token_hash = ${sha256Hex(expired)}`,
    );
    const unknown = `ott_${'A'.repeat(65)}`;
    const answers = await Promise.all([foreign, used, expired, unknown].map((t) => entry(`token=${t}`)));
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body.errors.message).toBe(answers[0].body.errors.message);
    }
    expect(answers[0].body.errors.message).toMatch(/one-time token is unknown, used or expired/);
    // The foreign token is still good for its own partner: only a read was made.
    expect(await redeemOneTimeToken(foreign, getDb())).toMatchObject({ partnerId: other.partnerId });
  });

  it('no token or a malformed one: 400 naming token', async () => {
    for (const q of ['', 'token=abc']) {
      const res = await entry(q);
      expect(res.status).toBe(400);
      expect(res.body.errors.details[0].path).toBe('token');
    }
  });

  it('a secret key is answered too, for the partner server, without CORS headers', async () => {
    const token = await issueOneTimeToken(m.partnerId, SELLER, 'email', getDb());
    const res = await entry(`token=${token}`, m.key, undefined);
    expect(res.status).toBe(200);
    expect(res.body.data.shows[0].tickets).toHaveLength(2);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("the partner's verification endpoint not answering: unavailable, no tickets", async () => {
    const p = await sellerMarket({ seller: SELLER, name: 'Entry down' });
    await updateIntegration({ partnerId: p.partnerId, verificationUrl: 'http://127.0.0.1:9/api' }, getDb());
    const token = await issueOneTimeToken(p.partnerId, SELLER, 'email', getDb());
    const res = await entry(`token=${token}`, p.key, undefined);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ unavailable: true, shows: [] });
  });

  it('answers the preflight of a GET with Authorization from any page', async () => {
    const res = await resaleEntryOptions(
      new Request('http://encore.test/v1/wrapper/accesslayer/resale-entry', {
        method: 'OPTIONS',
        headers: {
          origin: SHOP,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
  });
});
