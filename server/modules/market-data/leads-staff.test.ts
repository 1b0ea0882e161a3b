import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as bulkPost } from '@/app/v1/marketdata/ticket-leads/bulk/route';
import { getDb } from '@/db';
import { mails } from '@/db/schema/mail';
import { leads } from '@/db/schema/market-data';
import { createBuyIntention, createListing, relist, unlist } from '@/server/modules/marketplace';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { leadsCsv } from './leads-admin';
import { joinWishlist, notificationLead, unsubscribeNotification } from './wishlist';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const SELLER = 'seller@example.com';

let jobs: ReturnType<typeof recordJobs>;
beforeAll(() => {
  jobs = recordJobs();
});
afterAll(() => jobs.restore());

async function market(name: string) {
  const m = await sellerMarket({
    seller: SELLER,
    name,
    tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }],
  });
  const send = async (items: unknown[]) => {
    const res = await bulkPost(apiRequest('/v1/marketdata/ticket-leads/bulk', { key: m.key, body: items }));
    expect(res.status).toBe(200);
  };
  const lead = (type: string, email: string) => ({
    type,
    externalReferenceEventId: m.ref,
    showId: '1',
    buyer: { email },
  });
  const wishlistMails = () =>
    getDb()
      .select()
      .from(mails)
      .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'wishlistAvailable')));
  return { ...m, send, lead, wishlistMails };
}

describe('wishlist mails', () => {
  it('tells each WISHLIST lead once per listing, with a working unsubscribe link', async () => {
    const m = await market('Wishlist mails');
    await m.send([
      m.lead('WISHLIST', 'ana@example.com'),
      m.lead('WISHLIST', 'bo@example.com'),
      m.lead('ABANDONED_CART', 'cy@example.com'),
      { ...m.lead('WISHLIST', 'x'), buyer: { phone: '+34600000000' } },
    ]);
    const first = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    let sent = await m.wishlistMails();
    expect(sent.map((s) => s.toAddress).sort()).toEqual(['ana@example.com', 'bo@example.com']);
    expect(sent[0].subject).toBe(`Tickets for ${m.ref} are on sale`);
    expect(sent[0].textBody).toContain('40.00');
    const link = /http:\/\/encore\.test\/unsubscribe\/(lnt_[0-9a-f]{32})/.exec(
      sent.find((s) => s.toAddress === 'bo@example.com')!.textBody,
    );
    expect(link).not.toBeNull();

    // Unlisting and relisting the same listing tells no one again.
    await unlist(m.partnerId, first.id, getDb());
    await relist(m.partnerId, first.id, getDb());
    expect(await m.wishlistMails()).toHaveLength(2);

    // Bo unsubscribes through the link: the next listing reaches Ana only.
    expect(await notificationLead(link![1], getDb())).toMatchObject({
      eventRef: m.ref,
      showId: '1',
      unsubscribedAt: null,
    });
    expect(await unsubscribeNotification(link![1], getDb())).toBe(true);
    expect(await unsubscribeNotification('lnt_nope', getDb())).toBe(false);
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 45 }, getDb());
    sent = await m.wishlistMails();
    expect(sent.map((s) => s.toAddress).sort()).toEqual(['ana@example.com', 'ana@example.com', 'bo@example.com']);

    // Joining the wishlist again on the buy page undoes the unsubscribe.
    const lead = await notificationLead(link![1], getDb());
    expect(lead?.unsubscribedAt).not.toBeNull();
    const { eventPk, showPk } = await pks(m);
    expect(await joinWishlist({ eventPk, showPk, email: 'bo@example.com' }, getDb())).toMatchObject({ ok: true });
    expect((await notificationLead(link![1], getDb()))?.unsubscribedAt).toBeNull();
  });
});

async function pks(m: { partnerId: string; ref: string }) {
  const { showDirectory } = await import('@/server/modules/catalog');
  const d = showDirectory(getDb());
  const [row] = await getDb()
    .select({ eventPk: d.eventPk, showPk: d.showPk })
    .from(d)
    .where(and(eq(d.partnerId, m.partnerId), eq(d.eventRef, m.ref)));
  return row;
}

describe('staff leads view', () => {
  it('counts per event and type, lists, funnels to resale purchases and exports CSV', async () => {
    const m = await market('Leads staff');
    await m.send([
      m.lead('WISHLIST', 'ana@example.com'),
      m.lead('WISHLIST', 'bo@example.com'),
      m.lead('ABANDONED_CART', 'cy@example.com'),
      {
        ...m.lead('TICKET_HOLDER', 'dee@example.com'),
        ticketId: 'T9',
        price: 40,
        buyer: { email: 'dee@example.com', fullName: '=HYPERLINK("x")' },
      },
    ]);
    // Cy (abandoned cart) then buys on resale.
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T3'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: 'cy@example.com' }, getDb());
    expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);

    expect(await staff.leads.counts({ partnerId: m.partnerId })).toEqual([
      { eventRef: m.ref, TICKET_HOLDER: 1, ABANDONED_CART: 1, VIRTUAL_QUEUE: 0, WISHLIST: 2, total: 4 },
    ]);
    expect(await staff.leads.funnel({ partnerId: m.partnerId, eventRef: m.ref })).toEqual({
      wishlist: 2,
      abandonedCart: 1,
      boughtOnResale: 1,
    });
    const page = await staff.leads.list({ partnerId: m.partnerId, eventRef: m.ref, type: 'WISHLIST', pageSize: 1 });
    expect([page.total, page.items.length]).toEqual([2, 1]);

    let csv = '';
    for await (const chunk of leadsCsv(m.partnerId, m.ref, getDb())) csv += chunk;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'type,externalReferenceEventId,showId,buyerEmail,buyerPhone,buyerId,buyerFullName,ticketId,price,currency,ticketOptionId,priceTypeId,purchaseDate,tags,unsubscribed,updatedAt',
    );
    expect(lines).toHaveLength(5);
    // A value a spreadsheet would run as a formula is defused and quoted.
    expect(lines.find((l) => l.includes('dee@example.com'))).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines.find((l) => l.includes('dee@example.com'))).toContain(',T9,40,EUR,');

    // In the order the leads came, not their ids' order: with times set against the ids, the export follows time.
    const ids = (await getDb().select({ id: leads.id }).from(leads).where(eq(leads.partnerId, m.partnerId)))
      .map((r) => r.id)
      .sort()
      .reverse();
    for (const [i, id] of ids.entries()) {
      await getDb()
        .update(leads)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)), buyerFullName: `Lead ${i} Núñez` })
        .where(eq(leads.id, id));
    }
    csv = '';
    for await (const chunk of leadsCsv(m.partnerId, m.ref, getDb())) csv += chunk;
    expect(
      csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => /Lead (\d) Núñez/.exec(l)?.[1]),
    ).toEqual(['0', '1', '2', '3']);
  });
});
