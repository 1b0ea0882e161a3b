import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { createChannel } from '@/server/modules/partners';
import { makePartner } from '@/server/testing/fixtures';
import { postRules, sellerMarket } from '@/server/testing/market';
import { payOnSandbox } from '@/server/testing/payments';
import {
  channelNamesOfSellers,
  channelSeller,
  createBuyIntention,
  createListing,
  transferTickets,
  unlist,
} from '@/server/modules/marketplace';
import { ticketDetailWithMarket } from './ticket-history';

/*
 * Support's ticket page names who bought, at what price, from which listing and in which purchase, and
 * whom a transfer went to; channel sellers go by their channel's name, never across partners.
 */

const SELLER = 'seller@example.com';
const BUYER = 'buyer@example.com';
const FRIEND = 'friend@example.com';

async function ticketPk(partnerId: string, ticketId: string) {
  const [row] = await getDb()
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, ticketId)));
  return row.id;
}

describe('ticket history with the market', () => {
  it('names the listings, the sale (buyer, price, listing, purchase) and the transfer that followed', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'History market' });
    const first = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await unlist(m.partnerId, first.id, getDb());
    const second = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T1'], price: '45.50' },
      getDb(),
    );
    const intention = await createBuyIntention(m.partnerId, { items: [second.id], user: BUYER }, getDb());
    expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);
    await postRules(m.key, [{ externalReferenceEventId: m.ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } }]);
    await transferTickets(m.partnerId, { ticketIds: ['T1'], fromEmail: BUYER, toEmail: FRIEND }, getDb());

    const detail = await ticketDetailWithMarket(
      { partnerId: m.partnerId, ticketId: await ticketPk(m.partnerId, 'T1') },
      getDb(),
    );
    expect(detail.history.map((h) => h.kind)).toEqual([
      'imported',
      'listed',
      'unlisted',
      'listed',
      'transferred',
      'transferred',
    ]);
    const [, listed, unlisted, relisted, sale, transfer] = detail.history;
    expect(listed.listing).toMatchObject({ id: first.id, price: 40, currency: 'EUR', seller: { email: SELLER } });
    expect(unlisted.listing).toMatchObject({ id: first.id, status: 'UNLISTED' });
    expect(relisted.listing).toMatchObject({ id: second.id, price: 45.5 });
    expect(sale.sale).toEqual({
      buyer: { email: BUYER, channel: null },
      price: 45.5,
      currency: 'EUR',
      listingId: second.id,
      intentionId: intention.id,
      orderId: null,
    });
    expect(sale.transferTo).toBeUndefined();
    expect(transfer.sale).toBeUndefined();
    expect(transfer.transferTo).toBe(FRIEND);

    // Another partner asking for this ticket learns nothing: the ticket is not found.
    const other = await makePartner('History other');
    await expect(
      ticketDetailWithMarket({ partnerId: other.partner.id, ticketId: detail.id }, getDb()),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('a ticket never listed keeps its recorded history and gains nothing', async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'History quiet' });
    const detail = await ticketDetailWithMarket(
      { partnerId: m.partnerId, ticketId: await ticketPk(m.partnerId, 'T2') },
      getDb(),
    );
    expect(detail.history.map((h) => h.kind)).toEqual(['imported']);
  });
});

describe('channel sellers by name', () => {
  it('names the partner’s own channels only, in one look-up, and leaves fans’ e-mails alone', async () => {
    const a = await makePartner('Channels A');
    const b = await makePartner('Channels B');
    const mine = await createChannel({ partnerId: a.partner.id, name: 'StubHub-like' }, getDb());
    const theirs = await createChannel({ partnerId: b.partner.id, name: 'Not yours' }, getDb());
    const names = await channelNamesOfSellers(
      a.partner.id,
      [channelSeller(mine.id), channelSeller(theirs.id), 'fan@example.com'],
      getDb(),
    );
    expect([...names]).toEqual([[channelSeller(mine.id), 'StubHub-like']]);
  });
});
