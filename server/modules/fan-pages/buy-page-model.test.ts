import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { shortCache } from '@/server/lib/short-cache';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { syncTickets } from '@/server/testing/ticket-api';
import { buyerCheckout } from './buyer-pages';
import { buyPageModel, buyPageVersion, buyPageVersionAt } from './buy-page-model';
import { forgetBuyPageOffers } from './offers-cache';
import { createBuyIntention, createListing, setMarketTerms } from '@/server/modules/marketplace';
import { renamePartner } from '@/server/modules/partners';

/*
 * The buy page's model version: what lets a shared cache keep a page on a 304 instead of a
 * render. It must stay the same while nothing the page draws changes, and change with anything it draws.
 */

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

/** Forgets every cache the model reads through (what a write in this process, or a second, does). */
function forgetAll() {
  forgetBuyPageOffers();
  shortCache('buy-page-context', 1000).forget();
}

async function market() {
  const { partner, apiKey } = await makePartner('Model versions');
  const ref = `evt-${partner.id}`;
  await pushEvent(apiKey, ref, [testShow('1', { date: new Date(Date.now() + 365 * 24 * 3600_000).toISOString() })]);
  const res = await syncTickets(
    apiKey,
    ['T1', 'T2', 'T3'].map((ticketId, i) => ({
      externalReferenceEventId: ref,
      showId: '1',
      ticketId,
      ticketOptionId: 'GA',
      buyer: 'seller@example.com',
      ticketAccess: { type: 'OTHER', locator: 'x' },
      price: 40,
      props: { seating: { section: 'A', row: '1', seat: String(i + 1) } },
    })),
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const terms = { buyerFeePercent: 10, buyerFeeFixed: 1, sellerFeePercent: 0, sellerFeeFixed: 0, payoutDelayDays: 0 };
  await setMarketTerms(partner.id, terms, getDb());
  const list = (ticketId: string, price: string) =>
    createListing({ partnerId: partner.id, sellerEmail: 'seller@example.com', ticketIds: [ticketId], price }, getDb());
  const listings = [await list('T1', '50.00'), await list('T2', '60.00')];
  const checkout = await buyerCheckout([listings[0].id], getDb());
  return { partnerId: partner.id, eventPk: checkout!.event.eventPk, listings, list };
}

describe('the buy page model and its version', () => {
  it('stays the same while nothing changes, and changes with an offer held, a new offer or the partner’s name', async () => {
    const m = await market();
    const version = async (query: Record<string, string> = {}, locale = 'en') => {
      forgetAll();
      const model = await buyPageModel(m.eventPk, query, getDb());
      return buyPageVersion(model!, locale);
    };
    const first = await version();
    expect(await version()).toBe(first);
    // Another language, sort or page is another page.
    expect(await version({}, 'es')).not.toBe(first);
    expect(await version({ sort: 'price_desc' })).not.toBe(first);
    // A parameter the page does not read changes nothing (the canonical address leaves it out anyway).
    expect(await version({ utm_source: 'x' })).toBe(first);

    const model = await buyPageModel(m.eventPk, {}, getDb());
    expect(model?.listings.map((l) => l.id)).toEqual(m.listings.map((l) => l.id));
    expect(model?.count).toBe(2);

    await createBuyIntention(m.partnerId, { items: [m.listings[0].id], user: 'fan@example.com' }, getDb());
    const held = await version();
    expect(held).not.toBe(first);
    await m.list('T3', '45.00');
    const listed = await version();
    expect(listed).not.toBe(held);
    await renamePartner({ partnerId: m.partnerId, name: 'Model versions, renamed' }, getDb());
    expect(await version()).not.toBe(listed);
  });

  it('is read from a canonical address as the page would stamp it; none for an unknown event', async () => {
    const m = await market();
    forgetAll();
    const model = await buyPageModel(m.eventPk, { lang: 'es', page: '1' }, getDb());
    expect(await buyPageVersionAt(`/market/${m.eventPk}?lang=es&page=1`, getDb())).toBe(buyPageVersion(model!, 'es'));
    expect(await buyPageVersionAt('/market/evt_nothing_here?lang=en', getDb())).toBeNull();
    expect(await buyPageVersionAt('/market/%E0%A4%A?lang=en', getDb())).toBeNull();
    expect(await buyPageVersionAt(`/market/${m.eventPk}`, getDb())).toBeNull();
    // `lang=auto` (a fan who chose no language): the page renders, and stamps, the event country's language.
    const auto = await buyPageModel(m.eventPk, { lang: 'auto' }, getDb());
    expect(await buyPageVersionAt(`/market/${m.eventPk}?lang=auto`, getDb())).toBe(buyPageVersion(auto!, 'en'));
    await getSql()`update events set location = '{"country": "DE"}'::jsonb where id = ${m.eventPk}`;
    shortCache('page-event-country', 60_000).forget();
    expect(await buyPageVersionAt(`/market/${m.eventPk}?lang=auto`, getDb())).toBe(buyPageVersion(auto!, 'de'));
  });
});
