import { describe, expect, it } from 'vitest';
import { GET as salePublicUrlGet } from '@/app/v1/events/tickets/salePublicUrl/route';
import { getDb } from '@/db';
import { setEnvInFile } from '@/server/testing/env';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { json } from '@/server/testing/ticket-api';
import { setMarketTerms } from './fees';
import { createBuyIntention } from './intentions';
import { createListing, unlist } from './listings';
import { sellerListingPage } from './sell';
import { listingPage, namedTicketOnSale } from '@/server/modules/fan-pages';

/*
 * The shared listing: the public sale URL leads to the ticket's own listing while it is
 * listed and to the event's market naming the ticket when not; the listing's page shows anyone the event,
 * seats and price with fees; the seller's share link is that page. All scoped to the listing's partner.
 */

setEnvInFile({ PUBLIC_BASE_URL: 'https://encore.test' });

const SELLER = 'seller@example.com';

const saleUrl = (key: string, ticketId: string, lang = 'es') =>
  salePublicUrlGet(
    apiRequest(`/v1/events/tickets/salePublicUrl?ticketId=${ticketId}&lang=${lang}`, { key }),
    routeParams({}),
  ).then(json);

async function market(name: string) {
  const m = await sellerMarket({
    seller: SELLER,
    name,
    daysAhead: 30,
    tickets: [{ ticketId: 'T1', props: { seating: { section: 'B', row: '4', seat: '12' } } }, { ticketId: 'T2' }],
  });
  // A buyer's fee of 10% + 1.00 per ticket: what the listing's page must add to the seller's price.
  const terms = { buyerFeePercent: 10, buyerFeeFixed: 1, sellerFeePercent: 0, sellerFeeFixed: 0, payoutDelayDays: 0 };
  await setMarketTerms(m.partnerId, terms, getDb());
  return m;
}

describe('GET /v1/events/tickets/salePublicUrl: filtered to the ticket', () => {
  it("answers the event's market naming the ticket while it is not listed, its own listing while it is", async () => {
    const m = await market('Sale URL');
    const before = await saleUrl(m.key, 'T1');
    expect(before.status).toBe(200);
    const market1 = new URL(before.body.data);
    expect(market1.origin).toBe('https://encore.test');
    expect(market1.pathname).toMatch(/^\/market\/evt_/);
    expect(market1.searchParams.get('show')).toMatch(/^shw_/);
    const ticketPk = market1.searchParams.get('ticket') as string;
    expect(ticketPk).toMatch(/^tkt_/);
    expect(market1.searchParams.get('lang')).toBe('es');
    const eventPk = market1.pathname.split('/')[2];
    // The market page says "not on sale" for it (a ticket of this event with no open listing).
    expect(await namedTicketOnSale(ticketPk, eventPk, getDb())).toEqual({ listingId: null });

    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: '50' },
      getDb(),
    );
    const listed = new URL((await saleUrl(m.key, 'T1', 'en')).body.data);
    expect(listed.pathname).toBe(`/listing/${listing.id}`);
    expect(listed.searchParams.get('lang')).toBe('en');
    expect([...listed.searchParams.keys()]).toEqual(['lang']);
    // A market URL handed out before the listing now leads to it.
    expect(await namedTicketOnSale(ticketPk, eventPk, getDb())).toEqual({ listingId: listing.id });
    // The other ticket of the show is still not on sale.
    expect(new URL((await saleUrl(m.key, 'T2')).body.data).pathname).toBe(`/market/${eventPk}`);

    // Held by a buyer who is paying: still its listing's page (which says so).
    const held = await createBuyIntention(m.partnerId, { items: [listing.id], user: 'buyer@example.com' }, getDb());
    expect(held.id).toBeTruthy();
    expect(new URL((await saleUrl(m.key, 'T1')).body.data).pathname).toBe(`/listing/${listing.id}`);
  });

  it('answers the market again once the listing is off sale, and 404 for an unknown or another partner’s ticket', async () => {
    const m = await market('Sale URL off');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: '50' },
      getDb(),
    );
    await unlist(m.partnerId, listing.id, getDb());
    const off = new URL((await saleUrl(m.key, 'T1')).body.data);
    expect(off.pathname).toMatch(/^\/market\/evt_/);
    expect(off.searchParams.get('ticket')).toMatch(/^tkt_/);
    expect((await saleUrl(m.key, 'NOPE')).status).toBe(404);
    const other = await makePartner('Sale URL other');
    const foreign = await saleUrl(other.apiKey, 'T1');
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors.message).toBe('Ticket not found');
    // Another event's page never names this ticket (nothing to say, nothing to redirect to).
    const mine = new URL((await saleUrl(m.key, 'T1')).body.data);
    expect(await namedTicketOnSale(mine.searchParams.get('ticket') as string, 'evt_other', getDb())).toBeNull();
  });
});

describe("the shared listing's page", () => {
  it('shows anyone the event, show, option, seats and the price with the market fees; the share link is that page', async () => {
    const m = await market('Shared page');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: '50' },
      getDb(),
    );
    const shared = await listingPage(listing.id, getDb());
    expect(shared).not.toBeNull();
    const s = shared as NonNullable<typeof shared>;
    expect(s.partnerId).toBe(m.partnerId);
    expect(s.event.partnerId).toBe(m.partnerId);
    expect(s.show.showId).toBe('1');
    expect(s.available).toBe(true);
    expect(s.listing).toMatchObject({
      id: listing.id,
      status: 'ACTIVE',
      optionTitle: expect.any(String),
      ticketCount: 1,
      priceMinor: 5000,
      feeMinor: 600, // 10% of 50.00 + 1.00
      perTicketMinor: 5600,
      totalMinor: 5600,
      seats: [{ section: 'B', row: '4', seat: '12' }],
    });
    // Nothing of the seller.
    expect(JSON.stringify(s)).not.toContain(SELLER);
    // The seller's share link is the listing's own page, not the show's market.
    const view = await sellerListingPage(m.partnerId, listing.id, SELLER, getDb());
    expect(view?.shareUrl).toBe(`https://encore.test/listing/${listing.id}`);

    await unlist(m.partnerId, listing.id, getDb());
    const off = await listingPage(listing.id, getDb());
    expect(off?.available).toBe(false);
    expect(off?.listing.status).toBe('UNLISTED');
    expect(await listingPage('lst_doesnotexist', getDb())).toBeNull();
  });
});
