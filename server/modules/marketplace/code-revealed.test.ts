import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { setPartnerProtection } from '@/server/modules/protection';
import { apiRequest } from '@/server/testing/fixtures';
import { postRules, sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import { transferOwnership } from '@/server/modules/tickets';
import { putTicket } from '@/server/testing/ticket-api';
import {
  createBuyIntention,
  createListing,
  listForSeller,
  relist,
  resaleEntryPage,
  secureView,
  secureViewWithoutCode,
  transferTickets,
  unlist,
} from './index';
import { explainTicket } from '@/server/modules/fan-pages';

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';
const STAFF = 'staff@encore.test';

/** A market whose show starts in an hour: the codes are unlocked (3 hours before by default). */
async function unlockedMarket(name: string, reissue: boolean) {
  const soon = new Date(Date.now() + 3600_000).toISOString();
  const m = await sellerMarket({
    seller: SELLER,
    name,
    show: { date: soon },
    tickets: [
      { ticketId: 'T1', ticketAccess: { type: 'OTHER', locator: 'CODE-1' } },
      { ticketId: 'T2', ticketAccess: { type: 'OTHER', locator: 'CODE-2' } },
    ],
  });
  if (reissue) await setPartnerProtection({ partnerId: m.partnerId, unlockHours: 3, reissue: true }, STAFF, getDb());
  return m;
}

async function ticketRow(partnerId: string, ticketId: string) {
  const [t] = await getDb()
    .select({ token: tickets.secureToken, codeShownAt: tickets.codeShownAt, buyerEmail: tickets.buyerEmail })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return t;
}

/** The holder opens the ticket's secure view and is shown its code. */
async function reveal(partnerId: string, ticketId: string) {
  const view = (await secureView((await ticketRow(partnerId, ticketId)).token, undefined, getDb()))!;
  expect(view.ticketAccess?.locator).toMatch(/CODE|NEW/);
  return view;
}

const failure = (e: unknown) => (e instanceof AppError ? { status: e.status, fanReason: e.fanReason } : e);

async function accessLayerStatus(key: string, ref: string, ticketId: string) {
  const res = await accessLayerPost(
    apiRequest('/v1/wrapper/accesslayer', {
      key,
      body: { user: SELLER, tickets: [{ eventId: ref, showId: '1', ticketId, ticketOptionId: 'GA' }] },
    }),
  );
  expect(res.status).toBe(200);
  const body = await res.json();
  return body.data.tickets[0] as { status: string; callToActions: { key: string }[] };
}

describe('recording when the holder is shown the code', () => {
  it('records the first time the secure view shows the code, and only then', async () => {
    const m = await unlockedMarket('Reveal record', false);
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeNull();
    // Pages that do not show the code (the transfer page, the sell action) record nothing.
    expect((await secureViewWithoutCode((await ticketRow(m.partnerId, 'T1')).token, getDb()))!.ticketAccess).toBeNull();
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeNull();

    await reveal(m.partnerId, 'T1');
    const first = (await ticketRow(m.partnerId, 'T1')).codeShownAt;
    expect(first).toBeInstanceOf(Date);
    await reveal(m.partnerId, 'T1');
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toEqual(first);
    expect((await ticketRow(m.partnerId, 'T2')).codeShownAt).toBeNull();
  });

  it('records nothing while the code is locked (the show is far away)', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Reveal locked' });
    const view = (await secureView((await ticketRow(m.partnerId, 'T1')).token, undefined, getDb()))!;
    expect(view).toMatchObject({ state: 'valid', ticketAccess: null });
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeNull();
  });

  it('a new code from the partner clears it; a PUT that keeps the code does not', async () => {
    const m = await unlockedMarket('Reveal new code', false);
    await reveal(m.partnerId, 'T1');
    expect((await putTicket(m.key, 'T1', { nominalTicket: { fullName: 'Same Code' } })).status).toBe(200);
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeInstanceOf(Date);
    expect((await putTicket(m.key, 'T1', { ticketAccess: { type: 'OTHER', locator: 'NEW-1' } })).status).toBe(200);
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeNull();
    // Nobody has seen the new code: the ticket can be listed again.
    await createListing({ partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb());
  });

  it('a P2P transfer with reissue clears it; without reissue the mark stays (the giver still has the code)', async () => {
    for (const reissue of [true, false]) {
      const m = await unlockedMarket(`Reveal transfer ${reissue}`, reissue);
      await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
      await reveal(m.partnerId, 'T1');
      await transferTickets(
        m.partnerId,
        { ticketIds: ['T1'], fromEmail: SELLER, toEmail: 'friend@example.com' },
        getDb(),
      );
      const after = await ticketRow(m.partnerId, 'T1');
      expect(after.buyerEmail).toBe('friend@example.com');
      if (reissue) expect(after.codeShownAt).toBeNull();
      else expect(after.codeShownAt).toBeInstanceOf(Date);
    }
  });

  it('with reissue on, a seller who saw the code sells; the buyer waits for the new code, then is shown it', async () => {
    const m = await unlockedMarket('Reveal resale reissue', true);
    await reveal(m.partnerId, 'T1');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: BUYER }, getDb());
    expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);
    const sold = await ticketRow(m.partnerId, 'T1');
    expect(sold.buyerEmail).toBe(BUYER);
    expect(sold.codeShownAt).toBeNull();
    expect((await secureView(sold.token, undefined, getDb()))!).toMatchObject({
      state: 'reissuing',
      ticketAccess: null,
    });
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeNull();
    expect((await putTicket(m.key, 'T1', { ticketAccess: { type: 'OTHER', locator: 'NEW-CODE' } })).status).toBe(200);
    expect((await secureView(sold.token, undefined, getDb()))!.ticketAccess).toEqual({
      type: 'OTHER',
      locator: 'NEW-CODE',
    });
    expect((await ticketRow(m.partnerId, 'T1')).codeShownAt).toBeInstanceOf(Date);
  });
});

describe('a ticket whose code its holder has seen, while the partner does not reissue', () => {
  it('is NOT_SELLABLE everywhere: access layer (no SELL), selling pages (CODE_REVEALED), listing create, relist, staff explainer', async () => {
    const m = await unlockedMarket('Revealed not sellable', false);
    // T2 is listed, then off sale, before its code is seen: relisting must be refused after the reveal.
    const t2 = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    await unlist(m.partnerId, t2.id, getDb());
    expect((await accessLayerStatus(m.key, m.ref, 'T1')).status).toBe('SELLABLE');
    await reveal(m.partnerId, 'T1');
    await reveal(m.partnerId, 'T2');

    const layer = await accessLayerStatus(m.key, m.ref, 'T1');
    expect(layer).toMatchObject({ status: 'NOT_SELLABLE', callToActions: [] });

    const page = await resaleEntryPage(m.partnerId, SELLER, undefined, getDb());
    const t1 = page.groups.flatMap((g) => g.tickets).find((t) => t.ticket.ticketId === 'T1')!;
    expect(t1.sellable).toBe(false);
    expect(t1.reasons.map((r) => r.code)).toEqual(['CODE_REVEALED']);

    const [row] = await getDb()
      .select({ pk: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    const viaPage = await listForSeller(m.partnerId, SELLER, [row.pk], '40', getDb());
    expect(viaPage).toMatchObject({ ok: false, problems: [{ code: 'CODE_REVEALED', ticketId: 'T1' }] });

    const refused = await createListing(
      {
        partnerId: m.partnerId,
        sellerEmail: SELLER,
        ticketIds: ['T1'],
        price: 40,
      },
      getDb(),
    ).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.status).toBe(409);
    expect(refused.message).toContain('T1');
    expect(refused.message).toContain('code was already shown');

    const relisted = await relist(m.partnerId, t2.id, getDb()).catch((e) => e);
    expect(failure(relisted)).toMatchObject({ status: 409, fanReason: 'CODE_REVEALED' });
    expect(relisted.message).toContain('T2');
    expect(relisted.message).toContain('code was already shown');

    const staff = await explainTicket(m.partnerId, 'T1', getDb());
    expect(staff.status).toBe('NOT_SELLABLE');
    expect(staff.codeShownAt).not.toBeNull();
    expect(staff.reasons.join(' ')).toContain('code was already shown to its holder');
  });

  it('a hand-over that refuses revealed codes (channel fulfilment) re-checks under the ticket lock: 409 CODE_REVEALED, nothing changes', async () => {
    const m = await unlockedMarket('Revealed hand-over', false);
    await reveal(m.partnerId, 'T1');
    const [row] = await getDb()
      .select({ pk: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.partnerId, m.partnerId), eq(tickets.ticketId, 'T1')));
    const refused = await getDb()
      .transaction((tx) =>
        transferOwnership(tx, [row.pk], BUYER, { reason: 'SOLD', reissue: false, refuseRevealed: true }),
      )
      .catch((e) => e);
    expect(failure(refused)).toMatchObject({ status: 409, fanReason: 'CODE_REVEALED' });
    expect((await ticketRow(m.partnerId, 'T1')).buyerEmail).toBe(SELLER);
  });

  it('with reissue on, the same ticket stays SELLABLE and is listed', async () => {
    const m = await unlockedMarket('Revealed reissue on', true);
    await reveal(m.partnerId, 'T1');
    expect(await accessLayerStatus(m.key, m.ref, 'T1')).toMatchObject({
      status: 'SELLABLE',
      callToActions: [{ key: 'SELL' }],
    });
    expect((await explainTicket(m.partnerId, 'T1', getDb())).status).toBe('SELLABLE');
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    expect(listing.status).toBe('ACTIVE');
  });
});
