import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET as calendarGet } from '@/app/(market)/t/[token]/calendar.ics/route';
import { GET as accessLayerGet, POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { PUT as updateEventPut } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { buyIntentions, listings, mails, shows, tickets } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { showDirectory } from '@/server/modules/catalog';
import {
  createBuyIntention,
  createListing,
  listingChecks,
  relist,
  secureView,
  transferTickets,
} from '@/server/modules/marketplace';
import { listMessages } from '@/server/modules/webhooks';
import { reissueDelayStats, ticketsAwaitingReissue, ticketsForSale } from '@/server/modules/tickets';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { postRules, sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { admit, deleteTicket, putTicket } from '@/server/testing/ticket-api';
import { eventProtection, partnerProtection, protectionOf, setPartnerProtection, setScopeProtection } from './index';

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';
const STAFF = 'staff@encore.test';

async function pks(partnerId: string, ref: string) {
  const d = showDirectory(getDb());
  const rows = await getDb()
    .select({ eventPk: d.eventPk, showPk: d.showPk, showId: d.showId })
    .from(d)
    .where(and(eq(d.partnerId, partnerId), eq(d.eventRef, ref)));
  return { eventPk: rows[0].eventPk, show: Object.fromEntries(rows.map((r) => [r.showId, r.showPk])) };
}

async function tokenOf(partnerId: string, ticketId: string) {
  const [t] = await getDb()
    .select({ token: tickets.secureToken })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return t.token;
}

const shieldMessages = async (partnerId: string) =>
  (await listMessages({ partnerId, action: 'ticketShield.updated', pageSize: 100 }, getDb())).items.map((i) => i.data);

describe('protection switches', () => {
  it('sends ticketShield.updated once per show whose protection changes, with the partner’s ids', async () => {
    const { apiKey, partner } = await makePartner('Shield');
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await pushEvent(apiKey, 'EV-S', [testShow('A', { date: future }), testShow('B', { date: future })]);
    const { eventPk, show } = await pks(partner.id, 'EV-S');
    const set = (showPk: string | null, active: boolean | null, unlockHours: number | null = null) =>
      setScopeProtection({ partnerId: partner.id, eventPk, showPk, active, unlockHours }, STAFF, getDb());

    // The event off: both shows change.
    expect((await set(null, false)).notified).toEqual([
      { eventId: 'EV-S', showId: 'A', status: false },
      { eventId: 'EV-S', showId: 'B', status: false },
    ]);
    // Show A on against the event: A alone.
    expect((await set(show.A, true)).notified).toEqual([{ eventId: 'EV-S', showId: 'A', status: true }]);
    // The same again, or only an unlock override: nothing changes, nothing is sent.
    expect((await set(show.A, true)).notified).toEqual([]);
    expect((await set(show.B, null, 6)).notified).toEqual([]);
    // The event back to the default (on): B follows, A was on already.
    expect((await set(null, null)).notified).toEqual([{ eventId: 'EV-S', showId: 'B', status: true }]);
    expect(await shieldMessages(partner.id)).toEqual(
      expect.arrayContaining([
        { status: false, eventId: 'EV-S', showId: 'A' },
        { status: false, eventId: 'EV-S', showId: 'B' },
        { status: true, eventId: 'EV-S', showId: 'A' },
        { status: true, eventId: 'EV-S', showId: 'B' },
      ]),
    );
    expect(await shieldMessages(partner.id)).toHaveLength(4);

    const view = await eventProtection(partner.id, eventPk, getDb());
    expect(view.event).toEqual({ active: null, unlockHours: null });
    expect(view.shows.map((s) => [s.showId, s.active, s.unlockHours, s.effective])).toEqual([
      ['A', true, null, { active: true, unlockOverride: null }],
      ['B', null, 6, { active: true, unlockOverride: 6 }],
    ]);

    // Another partner cannot switch (or see) this event: not found, nothing sent.
    const other = await makePartner('Shield other');
    await expect(
      setScopeProtection(
        { partnerId: other.partner.id, eventPk, showPk: null, active: false, unlockHours: null },
        STAFF,
        getDb(),
      ),
    ).rejects.toThrow(AppError);
    await expect(eventProtection(other.partner.id, eventPk, getDb())).rejects.toThrow('Event not found');
    expect(await shieldMessages(partner.id)).toHaveLength(4);
  });

  it('resale needs protection: open listings are unlisted with a mail, new ones refused, the access layers show no resale', async () => {
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Unprotected',
      tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }],
    });
    const { eventPk, show } = await pks(m.partnerId, m.ref);
    const before = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    const held = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T3'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [held.id], user: BUYER }, getDb());
    await setScopeProtection(
      { partnerId: m.partnerId, eventPk, showPk: show['1'], active: false, unlockHours: null },
      STAFF,
      getDb(),
    );
    const db = getDb();
    const statusOf = async (id: string) =>
      (await db.select({ status: listings.status }).from(listings).where(eq(listings.id, id)))[0].status;
    expect(await statusOf(before.id)).toBe('UNLISTED');
    expect(await statusOf(held.id)).toBe('UNLISTED');
    const [hold] = await db.select().from(buyIntentions).where(eq(buyIntentions.id, intention.id));
    expect(hold.status).toBe('CANCELLED');
    const sent = await db
      .select({ kind: mails.kind, to: mails.toAddress, text: mails.textBody })
      .from(mails)
      .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'listingCancelled')));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ to: SELLER });
    expect(sent[0].text).toContain('Resale is paused for this show');
    // Switching it off again (already off) unlists nothing more and tells no one.
    await setScopeProtection(
      { partnerId: m.partnerId, eventPk, showPk: show['1'], active: false, unlockHours: 2 },
      STAFF,
      getDb(),
    );
    expect(
      await db
        .select()
        .from(mails)
        .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'listingCancelled'))),
    ).toHaveLength(2);

    const list = await ticketsForSale(m.partnerId, ['T1'], db);
    const { problems } = await listingChecks(m.partnerId, list, 4000, undefined, db);
    expect(problems.map((p) => p.code)).toEqual(['PROTECTION_OFF']);
    await expect(
      createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, db),
    ).rejects.toThrow(/ticket protection is off for this show/);

    const sell = await accessLayerPost(
      apiRequest('/v1/wrapper/accesslayer', {
        key: m.key,
        body: { user: SELLER, tickets: [{ eventId: m.ref, showId: '1', ticketId: 'T1', ticketOptionId: 'GA' }] },
      }),
    );
    const sold = await sell.json();
    expect(sold.data.tickets[0].status).toBe('NOT_SELLABLE');

    const buy = await accessLayerGet(
      apiRequest(`/v1/wrapper/accesslayer?type=buy&eventId=${m.ref}&showId=1`, { key: m.key }),
    );
    const bought = await buy.json();
    expect(bought.data.market.resaleEnabled).toBe(false);
    expect(bought.data.components.find((c: { class: string }) => c.class === 'buyButton').button.enabled).toBe(false);

    // Back on: the same ticket lists.
    await setScopeProtection(
      { partnerId: m.partnerId, eventPk, showPk: show['1'], active: null, unlockHours: null },
      STAFF,
      getDb(),
    );
    expect((await listingChecks(m.partnerId, list, 4000, undefined, db)).problems).toEqual([]);
    // The unlisted listing can go on sale again.
    expect((await relist(m.partnerId, before.id, db)).status).toBe('ACTIVE');
  });
});

describe('resale turned off by the partner', () => {
  it('takes the show’s listings off sale with a mail, as protection off does; back on, they list again', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Resale off' });
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const put = (resaleEnabled: boolean) =>
      updateEventPut(
        apiRequest('/v1/events', {
          method: 'PUT',
          key: m.key,
          body: { externalReferenceId: m.ref, shows: [{ showId: '1', resaleEnabled }] },
        }),
      );
    expect((await put(false)).status).toBe(200);
    const db = getDb();
    const [row] = await db.select({ status: listings.status }).from(listings).where(eq(listings.id, listing.id));
    expect(row.status).toBe('UNLISTED');
    const sent = await db
      .select({ to: mails.toAddress })
      .from(mails)
      .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'listingCancelled')));
    expect(sent).toEqual([{ to: SELLER }]);
    // Sending false again changes nothing and mails no one.
    expect((await put(false)).status).toBe(200);
    await expect(relist(m.partnerId, listing.id, db)).rejects.toThrow(/resale is turned off/);
    expect((await put(true)).status).toBe(200);
    expect((await relist(m.partnerId, listing.id, db)).status).toBe('ACTIVE');
    expect(
      await db
        .select()
        .from(mails)
        .where(and(eq(mails.partnerId, m.partnerId), eq(mails.kind, 'listingCancelled'))),
    ).toHaveLength(1);
  });
});

describe('the secure view', () => {
  it('unlocks by staff override, then the partner’s ticketDelivery, then the partner’s default hours; without protection at once', async () => {
    const inFiveHours = new Date(Date.now() + 5 * 3600_000).toISOString();
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Unlock',
      show: { date: inFiveHours, configuration: { ticketDelivery: { time: { when: 'BEFORE', seconds: 3600 } } } },
      tickets: [{ ticketId: 'T1', ticketAccess: { type: 'OTHER', locator: 'CODE-1' } }],
    });
    const { eventPk, show } = await pks(m.partnerId, m.ref);
    const token = await tokenOf(m.partnerId, 'T1');
    const starts = new Date(inFiveHours).getTime();

    let view = (await secureView(token, undefined, getDb()))!;
    expect(view.state).toBe('valid');
    expect(view.unlocksAt.getTime()).toBe(starts - 3600_000); // ticketDelivery: 1 h before
    expect(view.ticketAccess).toBeNull();

    await setScopeProtection(
      { partnerId: m.partnerId, eventPk, showPk: null, active: null, unlockHours: 6 },
      STAFF,
      getDb(),
    );
    view = (await secureView(token, undefined, getDb()))!;
    expect(view.unlocksAt.getTime()).toBe(starts - 6 * 3600_000); // the event's override wins
    expect(view.ticketAccess).toEqual({ type: 'OTHER', locator: 'CODE-1' });
    await setScopeProtection(
      { partnerId: m.partnerId, eventPk, showPk: show['1'], active: null, unlockHours: 2 },
      STAFF,
      getDb(),
    );
    expect((await secureView(token, undefined, getDb()))!.unlocksAt.getTime()).toBe(starts - 2 * 3600_000); // the show's wins over the event's

    // Without overrides nor ticketDelivery: the partner's default hours.
    const n = await sellerMarket({ seller: SELLER, name: 'Default hours', show: { date: inFiveHours } });
    const other = await tokenOf(n.partnerId, 'T1');
    expect((await secureView(other, undefined, getDb()))!.unlocksAt.getTime()).toBe(starts - 3 * 3600_000);
    expect(await partnerProtection(n.partnerId, getDb())).toEqual({ unlockHours: 3, reissue: false });
    await setPartnerProtection({ partnerId: n.partnerId, unlockHours: 8, reissue: false }, STAFF, getDb());
    const open = (await secureView(other, undefined, getDb()))!;
    expect(open.unlocksAt.getTime()).toBe(starts - 8 * 3600_000);
    expect(open.ticketAccess).toEqual({ type: 'OTHER', locator: 'x' });

    // Protection off: no lock (the partner shows its tickets as before).
    const far = await sellerMarket({ seller: SELLER, name: 'Off' });
    const farPks = await pks(far.partnerId, far.ref);
    const farToken = await tokenOf(far.partnerId, 'T1');
    expect((await secureView(farToken, undefined, getDb()))!.ticketAccess).toBeNull();
    await setScopeProtection(
      { partnerId: far.partnerId, eventPk: farPks.eventPk, showPk: null, active: false, unlockHours: null },
      STAFF,
      getDb(),
    );
    const unprotected = (await secureView(farToken, undefined, getDb()))!;
    expect(unprotected.protectionActive).toBe(false);
    expect(unprotected.ticketAccess).toEqual({ type: 'OTHER', locator: 'x' });
  });

  it('says listed, used, deleted and cancelled, never with a code', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const m = await sellerMarket({
      seller: SELLER,
      name: 'States',
      show: { date: soon },
      tickets: [{ ticketId: 'T1' }, { ticketId: 'T2' }, { ticketId: 'T3' }],
    });
    const [t1, t2, t3] = await Promise.all(['T1', 'T2', 'T3'].map((id) => tokenOf(m.partnerId, id)));
    expect((await secureView(t3, undefined, getDb()))!).toMatchObject({
      state: 'valid',
      ticketAccess: { locator: 'x' },
    });

    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    expect((await secureView(t1, undefined, getDb()))!).toMatchObject({
      state: 'listed',
      ticketAccess: null,
      listingId: listing.id,
    });

    expect((await admit(m.key, 'T2')).status).toBe(200);
    expect((await secureView(t2, undefined, getDb()))!).toMatchObject({ state: 'used', ticketAccess: null });

    expect((await deleteTicket(m.key, 'T3')).status).toBe(200);
    expect((await secureView(t3, undefined, getDb()))!).toMatchObject({
      state: 'deleted',
      ticketAccess: null,
      actions: { calendar: false },
    });

    const { show } = await pks(m.partnerId, m.ref);
    await getDb().update(shows).set({ status: 'CANCELLED' }).where(eq(shows.id, show['1']));
    expect((await secureView(t2, undefined, getDb()))!.state).toBe('cancelled');
    expect(await secureView('f'.repeat(64), undefined, getDb())).toBeNull();
    expect(await secureView('../etc', undefined, getDb())).toBeNull();
  });

  it('after a resale: the seller’s link says sold, the buyer’s says being reissued until the partner’s new ticketAccess arrives', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Reissue',
      show: { date: soon },
      tickets: [{ ticketId: 'T1', ticketAccess: { type: 'OTHER', locator: 'OLD-CODE' } }],
    });
    await setPartnerProtection({ partnerId: m.partnerId, unlockHours: 3, reissue: true }, STAFF, getDb());
    expect((await protectionOf(m.partnerId, getDb())).reissue).toBe(true);
    const sellerToken = await tokenOf(m.partnerId, 'T1');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
    expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);

    const old = (await secureView(sellerToken, undefined, getDb()))!;
    expect(old).toMatchObject({ state: 'sold', ticketAccess: null, actions: { sell: false, transfer: false } });
    expect(old.ticket.holder).toBeNull();
    expect(old.endedAt).toBeInstanceOf(Date);
    const buyerToken = await tokenOf(m.partnerId, 'T1');
    expect(buyerToken).not.toBe(sellerToken);
    expect((await secureView(buyerToken, undefined, getDb()))!).toMatchObject({
      state: 'reissuing',
      ticketAccess: null,
    });
    expect((await ticketsAwaitingReissue(m.partnerId, undefined, getDb())).map((t) => [t.ticketId, t.owner])).toEqual([
      ['T1', BUYER],
    ]);
    expect(await reissueDelayStats(m.partnerId, getDb())).toMatchObject({ awaiting: 1, reissuedLast30Days: 0 });

    // A PUT that does not change ticketAccess is not a reissue.
    expect((await putTicket(m.key, 'T1', { nominalTicket: { fullName: 'New Owner' } })).status).toBe(200);
    expect((await secureView(buyerToken, undefined, getDb()))!.state).toBe('reissuing');
    // The new code: the buyer's view shows it; the seller's old one never does.
    expect((await putTicket(m.key, 'T1', { ticketAccess: { type: 'OTHER', locator: 'NEW-CODE' } })).status).toBe(200);
    expect((await secureView(buyerToken, undefined, getDb()))!).toMatchObject({
      state: 'valid',
      ticketAccess: { locator: 'NEW-CODE' },
    });
    expect((await secureView(sellerToken, undefined, getDb()))!.ticketAccess).toBeNull();
    expect(await ticketsAwaitingReissue(m.partnerId, undefined, getDb())).toEqual([]);
    const stats = await reissueDelayStats(m.partnerId, getDb());
    expect(stats).toMatchObject({ awaiting: 0, reissuedLast30Days: 1 });
    expect(stats.medianSeconds).toBeGreaterThanOrEqual(0);
  });

  it('a partner that does not reissue passes the code to the buyer; a transfer’s old link says transferred', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const m = await sellerMarket({ seller: SELLER, name: 'No reissue', show: { date: soon } });
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    const before = await tokenOf(m.partnerId, 'T1');
    expect((await secureView(before, undefined, getDb()))!.actions).toEqual({
      sell: true,
      transfer: true,
      calendar: true,
    });
    await transferTickets(
      m.partnerId,
      { ticketIds: ['T1'], fromEmail: SELLER, toEmail: 'friend@example.com' },
      getDb(),
    );
    expect((await secureView(before, undefined, getDb()))!).toMatchObject({ state: 'transferred', ticketAccess: null });
    const after = (await secureView(await tokenOf(m.partnerId, 'T1'), undefined, getDb()))!;
    expect(after).toMatchObject({ state: 'valid', ticketAccess: { locator: 'x' } });
  });

  it('adds the show to a calendar, without the code; a previous holder’s link has none', async () => {
    const m = await sellerMarket({
      seller: SELLER,
      name: 'Calendar, with; commas',
      tickets: [{ ticketId: 'T1', ticketAccess: { type: 'OTHER', locator: 'SECRET-ICS' } }],
    });
    const token = await tokenOf(m.partnerId, 'T1');
    const res = await calendarGet(new Request(`http://encore.test/t/${token}/calendar.ics`), routeParams({ token }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const ics = await res.text();
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain(`SUMMARY:${m.ref}`);
    expect(ics).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    expect(ics.replace(/\r\n /g, '')).toContain(`URL:http://encore.test/t/${token}`);
    expect(ics).not.toContain('SECRET-ICS');
    expect(ics.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const missing = await calendarGet(new Request('http://encore.test/t/x/calendar.ics'), routeParams({ token: 'x' }));
    expect(missing.status).toBe(404);
  });
});
