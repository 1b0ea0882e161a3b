import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listedTicketsGet } from '@/app/v1/marketplace/items/events/[eventId]/listedTickets/route';
import { type Db, getDb, getSql } from '@/db';
import * as schema from '@/db/schema';
import { buyIntentions } from '@/db/schema';
import { callRoute } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { listListings } from '@/server/modules/ops';
import { createBuyIntention, getBuyIntention } from './intentions';
import { createListing, getListing, listedTickets } from './listings';
import { buyerCheckout, buyerIntention, buyPage, cheapestListings, showMarketStates } from '@/server/modules/fan-pages';

/*
 * Reads never write: a read that shows listings counts a hold whose time is up as free in its
 * own SQL (holds.ts) and writes nothing, so a rush of readers never queues behind the row locks of an
 * UPDATE. Proved three ways: the statements a read sends (recorded by a logging handle on the same pool)
 * hold no INSERT, UPDATE or DELETE; the rows of the listing and the intention keep their `xmin` (any
 * UPDATE, even one that changes nothing, gives a row a new one); and the reads finish while another
 * session holds both tables in SHARE mode, which any write to them would wait behind.
 */

const SELLER = 'reads-seller@example.com';
const BUYER = 'reads-buyer@example.com';
const WRITE = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into)\b/i;

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

/** A drizzle handle on the app's own pool that records every statement it sends. */
function recordingDb(): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const db = drizzle(getSql(), {
    schema,
    casing: 'snake_case',
    logger: { logQuery: (query) => statements.push(query) },
  });
  return { db, statements };
}

/** A listing (T1) held by BUYER whose hold ran out a second ago, no job or sweep run; T2 listed and free. */
async function expiredHold() {
  const m = await sellerMarket({ seller: SELLER, name: 'Reads' });
  const list = (ticketId: string) =>
    createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [ticketId], price: 40 }, getDb());
  const held = await list('T1');
  const free = await list('T2');
  const intention = await createBuyIntention(m.partnerId, { items: [held.id], user: BUYER }, getDb());
  await getDb()
    .update(buyIntentions)
    .set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date })
    .where(eq(buyIntentions.id, intention.id));
  const checkout = await buyerCheckout([held.id], getDb());
  const [{ showPk }] = await getDb()
    .select({ showPk: schema.listings.showPk })
    .from(schema.listings)
    .where(eq(schema.listings.id, held.id));
  return { ...m, held: { ...held, showPk }, free, intention, eventPk: checkout!.event.eventPk };
}

/** The rows' versions: any write to them (even a no-op UPDATE) changes these. */
async function rowVersions(partnerId: string) {
  return getSql()`
    select 'l' as t, id, xmin::text as v, status, reserved_by from listings where partner_id = ${partnerId}
    union all
    select 'b', id, xmin::text, status, null from buy_intentions where partner_id = ${partnerId}
    order by t, id`;
}

/** Runs `reads` while another session holds listings and buy_intentions in SHARE mode (a write would wait). */
async function underShareLock<T>(reads: () => Promise<T>): Promise<T> {
  const locker = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  let out: { value: T } | undefined;
  try {
    await locker.begin(async (tx) => {
      await tx`lock table listings, buy_intentions in share mode`;
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('a read waited behind the table lock: it writes')), 10_000);
      });
      try {
        out = { value: await Promise.race([reads(), stuck]) };
      } finally {
        clearTimeout(timer);
      }
    });
    return out!.value;
  } finally {
    await locker.end();
  }
}

describe('reads never write', () => {
  it('the buy page, the checkout, listedTickets and the other reads show an expired hold as on sale and write nothing', async () => {
    const m = await expiredHold();
    const before = await rowVersions(m.partnerId);
    expect(before.find((r) => r.id === m.held.id)).toMatchObject({ status: 'RESERVED', reserved_by: m.intention.id });
    const { db, statements } = recordingDb();

    const seen = await underShareLock(async () => ({
      page: await buyPage(m.eventPk, {}, db),
      checkout: await buyerCheckout([m.held.id], db),
      listed: await listedTickets(m.partnerId, m.ref, undefined, db),
      listing: await getListing(m.partnerId, m.held.id, db),
      intention: await getBuyIntention(m.partnerId, m.intention.id, db),
      buyerView: await buyerIntention(m.intention.id, db),
      staffActive: await listListings({ partnerId: m.partnerId, status: 'ACTIVE' }, db),
      staffHeld: await listListings({ partnerId: m.partnerId, status: 'RESERVED' }, db),
      market: await showMarketStates(m.partnerId, [m.held.showPk], db),
      cheapest: await cheapestListings(m.partnerId, m.held.showPk, 10, db),
    }));

    // Every reader sees the listing on sale, and the intention's hold over.
    expect(seen.page!.listings.map((l) => l.id).sort()).toEqual([m.held.id, m.free.id].sort());
    expect(seen.checkout).toMatchObject({ available: true });
    expect(seen.listed.map((l) => l.listingId).sort()).toEqual([m.held.id, m.free.id].sort());
    expect(seen.listing.status).toBe('ACTIVE');
    expect(seen.intention.status).toBe('EXPIRED');
    expect(seen.buyerView!.intention.status).toBe('EXPIRED');
    expect(seen.buyerView!.listings.map((l) => l.status)).toEqual(['ACTIVE']);
    expect(seen.staffActive.items.map((l) => l.id).sort()).toEqual([m.held.id, m.free.id].sort());
    expect(seen.staffHeld.items).toEqual([]);
    expect(seen.market.get(m.held.showPk)).toMatchObject({ listings: 2, tickets: 2 });
    expect(seen.cheapest.map((l) => l.listingId).sort()).toEqual([m.held.id, m.free.id].sort());

    // Nothing was written: no write statement sent, no row touched.
    expect(statements.length).toBeGreaterThan(8);
    expect(statements.filter((s) => WRITE.test(s))).toEqual([]);
    expect(await rowVersions(m.partnerId)).toEqual(before);
  });

  it('GET listedTickets over HTTP shows the expired-held listing and issues no write', async () => {
    const m = await expiredHold();
    const path = `/v1/marketplace/items/events/${m.ref}/listedTickets`;
    const call = () => callRoute(listedTicketsGet, path, m.key, { params: { eventId: m.ref } });
    // The key's last use is stamped at most once a minute (partners' authenticate): the first call may.
    expect((await call()).status).toBe(200);
    const before = await rowVersions(m.partnerId);
    // The route handler reads through the process's handle: swapped for a recording one on the same pool.
    const g = globalThis as typeof globalThis & { __encoreDb?: { db: Db } };
    const handle = g.__encoreDb!;
    const original = handle.db;
    const { db, statements } = recordingDb();
    handle.db = db;
    let res: Awaited<ReturnType<typeof call>>;
    try {
      res = await underShareLock(call);
    } finally {
      handle.db = original;
    }
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { listingId: string }) => l.listingId).sort()).toEqual([m.held.id, m.free.id].sort());
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((s) => WRITE.test(s))).toEqual([]);
    expect(await rowVersions(m.partnerId)).toEqual(before);
  });
});
