import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { createListing } from '@/server/modules/marketplace';
import { setPartnerReturnOrigins } from '@/server/modules/partners';
import { listenerWithStandIn } from '@/server/testing/listener';
import { sellerMarket } from '@/server/testing/market';
import { seatMapDocument } from './seat-map';

/*
 * The buy page's seat map as a document of its own (fan-pages seat-map.ts), framed by the page:
 * its drawing, its links into the page around it, its policy, and Encore's server answering it without
 * Next.js (server/http/listener.ts).
 */

const SELLER = 'map-doc-seller@example.com';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100">' +
  '<rect data-section="A" data-label="Grada A" x="0" y="0" width="100" height="100"/>' +
  '<rect data-section="B" x="100" y="0" width="100" height="100"/>' +
  '<rect data-section="C" x="200" y="0" width="100" height="100"/><script>alert(1)</script></svg>';

let m: Awaited<ReturnType<typeof sellerMarket>>;
let eventPk = '';
let showPk = '';

beforeAll(async () => {
  m = await sellerMarket({
    seller: SELLER,
    name: 'Map document',
    tickets: ['A', 'B', 'C'].map((section) => ({
      ticketId: `T${section}`,
      props: { seating: { section, row: '1', seat: '1' } },
    })),
  });
  await getDb().execute(
    sql`update events set seating = ${JSON.stringify({ svgCode: SVG })}::jsonb where partner_id = ${m.partnerId}`,
  );
  for (const ticketId of ['TA', 'TB']) {
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [ticketId], price: 30 }, getDb());
  }
  const rows = await getDb().execute<{ event_pk: string; show_pk: string }>(
    sql`select event_pk, show_pk from tickets where partner_id = ${m.partnerId} limit 1`,
  );
  [eventPk, showPk] = [rows[0].event_pk, rows[0].show_pk];
});

const at = (query: string, path = `/market/${eventPk}/map`) =>
  seatMapDocument(new URL(`http://encore.test${path}?${query}`), getDb());
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the seat map document', () => {
  it('draws the sections in the page’s language, each on sale a link into the page around the frame at its own address', async () => {
    const returnTo = encodeURIComponent('https://tickets.partner.example/e/1');
    const doc = await at(`show=${showPk}&lang=es&returnTo=${returnTo}&page=3&section=A`);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatch(
      /^<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Plano de asientos<\/title>/,
    );
    const links = [...doc.body.matchAll(/<a href="([^"]+)" target="_parent" aria-label="([^"]+)"/g)].map((l) => [
      l[1],
      l[2],
    ]);
    const page = `/market/${eventPk}?show=${showPk}&amp;lang=es&amp;returnTo=${returnTo}`;
    expect(links).toEqual([
      [`${page}&amp;section=A`, expect.stringMatching(/^Grada A, 1 entrada desde \d+,\d\d\s€$/)],
      [`${page}&amp;section=B`, expect.stringMatching(/^B, 1 entrada desde/)],
    ]);
    // The chosen section is said; one with nothing on sale is a named image; the partner's script is gone.
    expect(doc.body).toMatch(/section=A" target="_parent" aria-label="[^"]+" aria-current="true">/);
    expect(doc.body).toContain('data-map-section="c" aria-label="C, sin entradas a la venta" role="img"');
    expect(doc.body).not.toContain('alert(1)');
  });

  it('shares one drawing between addresses that differ only in what it does not show, each with its own links', async () => {
    const a = await at(`show=${showPk}&lang=en&returnTo=${encodeURIComponent('https://a.example/')}`);
    const b = await at(`show=${showPk}&lang=en&returnTo=${encodeURIComponent('https://b.example/')}&sort=price_desc`);
    expect(a.body).toContain(`returnTo=https%3A%2F%2Fa.example%2F&amp;section=A"`);
    expect(b.body).toContain(`returnTo=https%3A%2F%2Fb.example%2F&amp;sort=price_desc&amp;section=A"`);
    expect(a.body.replace(/returnTo=[^&"]+(&amp;sort=[^&"]+)?/g, '')).toBe(
      b.body.replace(/returnTo=[^&"]+(&amp;sort=[^&"]+)?/g, ''),
    );
  });

  it('shows a listing written in this process at once (the drawing is forgotten with the offers)', async () => {
    const before = await at(`show=${showPk}&lang=en`);
    expect(before.body).not.toContain('section=C"');
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['TC'], price: 25 }, getDb());
    const after = await at(`show=${showPk}&lang=en`);
    expect(after.body).toMatch(/section=C" target="_parent" aria-label="C, 1 ticket from/);
  });

  it('allows its own style and script by their hashes, and is framed by the buy page and what may frame it only', async () => {
    const doc = await at(`show=${showPk}&lang=en`);
    const style = /<style>([^<]*)<\/style>/.exec(doc.body)![1];
    const script = /<script>([^<]*)<\/script>/.exec(doc.body)![1];
    const csp = doc.headers['content-security-policy'];
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(doc.headers['x-frame-options']).toBe('SAMEORIGIN');
    await setPartnerReturnOrigins(
      { partnerId: m.partnerId, returnOrigins: ['https://tickets.partner.example'] },
      getDb(),
    );
    try {
      const framed = await at(`show=${showPk}&lang=en`);
      expect(framed.headers['content-security-policy']).toContain(
        "frame-ancestors 'self' https://tickets.partner.example",
      );
      expect(framed.headers['x-frame-options']).toBeUndefined();
    } finally {
      await setPartnerReturnOrigins({ partnerId: m.partnerId, returnOrigins: [] }, getDb());
    }
  });

  it('is a 404 (an empty document, never a 500) for an unknown event, a bad address, or an event without a drawing', async () => {
    const bare = await sellerMarket({ seller: SELLER, name: 'No map' });
    const [{ event_pk: plain }] = await getDb().execute<{ event_pk: string }>(
      sql`select e.id as event_pk from events e where e.partner_id = ${bare.partnerId}`,
    );
    for (const path of [
      '/market/evt_unknown/map',
      '/market/x%00y/map',
      `/market/${plain}/map`,
      `/market/${eventPk}/mapx`,
    ]) {
      const doc = await at('lang=es&section=%E2%82', path);
      expect([path, doc.status, doc.body]).toEqual([
        path,
        404,
        expect.stringContaining('<p>No encontramos esa página · Encore</p>'),
      ]);
    }
  });
});

describe('Encore’s server answers it without Next.js', () => {
  it('with the headers every answer carries, gzipped when taken; any other address goes to Next.js', async () => {
    const { base, asked, close } = await listenerWithStandIn({ seatMap: (url) => seatMapDocument(url, getDb()) });
    try {
      const res = await fetch(`${base}/market/${eventPk}/map?show=${showPk}&lang=en`, {
        headers: { 'x-request-id': 'req-map-1', 'accept-encoding': 'gzip' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('x-request-id')).toBe('req-map-1');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(await res.text()).toContain('target="_parent"');
      expect((await fetch(`${base}/market/evt_unknown/map`)).status).toBe(404);
      expect(asked).toEqual([]);
      // A POST, and the page itself, are Next.js's.
      await (await fetch(`${base}/market/${eventPk}/map`, { method: 'POST' })).text();
      await (await fetch(`${base}/market/${eventPk}/mapping`)).text();
      expect(asked).toEqual([`/market/${eventPk}/map`, `/market/${eventPk}/mapping`]);
    } finally {
      await close();
    }
  });
});
