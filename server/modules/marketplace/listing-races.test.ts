import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { listingItems, listings, mails, tickets } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { postRules, sellerMarket } from '@/server/testing/market';
import { createListing, relist, secureView, transferTickets, unlist } from './index';

/*
 * Listing create and relist against everything that changes a ticket under them, fired at once: the
 * checks read before their transaction are made again on the locked tickets inside it (listings.ts,
 * `recheckListable`), so whatever order the database picks, no listing ends ACTIVE for a ticket that is
 * listed twice, held by someone else, or whose code its holder was shown while the partner does not reissue.
 */

const SELLER = 'seller@example.com';
const N = 20;

/** Settled results as HTTP would see them: the status of each refusal (never a 5xx), or 200. */
function statuses(results: PromiseSettledResult<unknown>[]): number[] {
  return results.map((r) => {
    if (r.status === 'fulfilled') return 200;
    if (r.reason instanceof AppError) return r.reason.status;
    throw r.reason; // anything else would be a 500
  });
}

const reasons = (results: PromiseSettledResult<unknown>[]) =>
  results.flatMap((r) => (r.status === 'rejected' && r.reason instanceof AppError ? [r.reason.fanReason] : []));

/** A market of N tickets (R1…R20) of a show an hour away (their codes unlocked), all SELLER's. */
async function raceMarket(name: string) {
  const soon = new Date(Date.now() + 3600_000).toISOString();
  return sellerMarket({
    seller: SELLER,
    name,
    show: { date: soon },
    tickets: Array.from({ length: N }, (_, i) => ({ ticketId: `R${i + 1}` })),
  });
}

async function ticketRows(partnerId: string) {
  return getDb()
    .select({
      pk: tickets.id,
      ticketId: tickets.ticketId,
      token: tickets.secureToken,
      buyerEmail: tickets.buyerEmail,
      codeShownAt: tickets.codeShownAt,
    })
    .from(tickets)
    .where(eq(tickets.partnerId, partnerId));
}

/** Each ticket's open listings (ACTIVE or RESERVED), with their seller. */
async function openListings(partnerId: string) {
  return getDb()
    .select({
      ticketPk: listingItems.ticketPk,
      listingId: listings.id,
      seller: listings.sellerEmail,
      status: listings.status,
    })
    .from(listingItems)
    .innerJoin(listings, eq(listings.id, listingItems.listingId))
    .where(and(eq(listings.partnerId, partnerId), eq(listingItems.open, true)));
}

describe('listing create and relist under races', () => {
  it('20 listings of one ticket at once: one listing and one mail, 19 clear 409 LISTED_ELSEWHERE', async () => {
    const m = await raceMarket('Race create');
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, i) =>
        createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['R1'], price: 40 + i }, getDb()),
      ),
    );
    expect(statuses(results).sort()).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(reasons(results)).toEqual(Array(N - 1).fill('LISTED_ELSEWHERE'));
    const made = await getDb().select().from(listings).where(eq(listings.partnerId, m.partnerId));
    expect(made).toHaveLength(1);
    expect(made[0].status).toBe('ACTIVE');
    const sent = await getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'listingCreated')));
    expect(sent).toHaveLength(1);
  });

  it('20 relists of one listing at once: it is ACTIVE once, its ticket in one open listing, the others a clear 409', async () => {
    const m = await raceMarket('Race relist');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['R1'], price: 40 },
      getDb(),
    );
    await unlist(m.partnerId, listing.id, getDb());
    const results = await Promise.allSettled(Array.from({ length: N }, () => relist(m.partnerId, listing.id, getDb())));
    expect(statuses(results).sort()).toEqual([200, ...Array(N - 1).fill(409)]);
    const open = await openListings(m.partnerId);
    expect(open).toEqual([expect.objectContaining({ listingId: listing.id, status: 'ACTIVE' })]);
  });

  it('a relist racing a new listing of the same ticket: never two open listings of it', async () => {
    const m = await raceMarket('Race relist create');
    const off = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const l = await createListing(
          {
            partnerId: m.partnerId,
            sellerEmail: SELLER,
            ticketIds: [`R${i + 1}`],
            price: 40,
          },
          getDb(),
        );
        await unlist(m.partnerId, l.id, getDb());
        return l.id;
      }),
    );
    const results = await Promise.allSettled(
      off.flatMap((id, i) => [
        relist(m.partnerId, id, getDb()),
        createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [`R${i + 1}`], price: 41 }, getDb()),
      ]),
    );
    statuses(results); // no 5xx
    const open = await openListings(m.partnerId);
    expect(open).toHaveLength(N); // each ticket listed exactly once, whichever won
    expect(new Set(open.map((o) => o.ticketPk)).size).toBe(N);
  });

  it('listing create racing a P2P transfer of the same ticket never leaves an active listing by someone who no longer holds it', async () => {
    const m = await raceMarket('Race create transfer');
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const ids = Array.from({ length: N }, (_, i) => `R${i + 1}`);
    const results = await Promise.allSettled(
      ids.flatMap((id, i) => [
        createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [id], price: 40 }, getDb()),
        transferTickets(
          m.partnerId,
          { ticketIds: [id], fromEmail: SELLER, toEmail: `friend-${i}@example.com` },
          getDb(),
        ),
      ]),
    );
    const answered = statuses(results);
    expect(answered.every((s) => s < 500)).toBe(true);
    const rows = await ticketRows(m.partnerId);
    const open = await openListings(m.partnerId);
    for (const o of open) {
      const t = rows.find((r) => r.pk === o.ticketPk)!;
      expect(t.buyerEmail).toBe(o.seller);
    }
    // Each ticket went exactly one way: listed by its holder, or transferred (and not listed).
    for (let i = 0; i < N; i++) {
      const listed = answered[2 * i] === 200;
      const moved = answered[2 * i + 1] === 200;
      expect(listed !== moved).toBe(true);
    }
  });

  it('listing create racing the secure view revealing the code: never an active listing of a revealed ticket (reissue off)', async () => {
    const m = await raceMarket('Race create reveal');
    const rows = await ticketRows(m.partnerId);
    const results = await Promise.allSettled(
      rows.flatMap((t) => [
        createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: [t.ticketId], price: 40 }, getDb()),
        secureView(t.token, undefined, getDb()),
      ]),
    );
    statuses(results); // no 5xx
    const after = await ticketRows(m.partnerId);
    const open = await openListings(m.partnerId);
    const openPks = new Set(open.map((o) => o.ticketPk));
    for (const t of after) expect(openPks.has(t.pk) && t.codeShownAt !== null).toBe(false);
    // A view that showed the code is one whose ticket is not listed; one that did not says it is listed.
    rows.forEach((t, i) => {
      const view = results[2 * i + 1];
      if (view.status !== 'fulfilled' || !view.value) throw new Error('the secure view failed');
      const shown = (view.value as { ticketAccess: unknown }).ticketAccess !== null;
      expect(shown).toBe(!openPks.has(t.pk));
    });
    // Every ticket went exactly one way.
    expect(open.length + after.filter((t) => t.codeShownAt !== null).length).toBe(N);
    const all = await getDb()
      .select({ id: listings.id })
      .from(listings)
      .where(and(eq(listings.partnerId, m.partnerId), inArray(listings.status, ['ACTIVE', 'RESERVED'])));
    expect(all).toHaveLength(open.length);
  });
});
