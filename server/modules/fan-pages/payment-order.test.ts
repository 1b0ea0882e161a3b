import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { payments } from '@/db/schema';
import { seatedMarket } from '@/server/testing/seated-market';
import { createBuyIntention } from '@/server/modules/marketplace';
import { paymentOrder } from '.';

/*
 * What the payment page shows of a resale payment, read from the intention behind it: titles (never ids),
 * the show's date and venue, seats, the price and service fee per ticket (the fee the intention charged)
 * and the hold.
 */

describe('paymentOrder', () => {
  it('names the event, show, option and price type, seats and the fee split; the total is what the payment charges', async () => {
    const m = await seatedMarket('Payment order');
    const listing = m.listing;
    const before = Date.now();
    const intention = await createBuyIntention(m.partnerId, { items: [listing.id], user: 'buyer@fans.test' }, getDb());
    const order = await paymentOrder(intention.id, getDb());
    const [payment] = await getDb().select().from(payments).where(eq(payments.reference, intention.id));
    expect(order).toMatchObject({
      eventTitle: m.ref,
      venue: 'Sala Roja · Av. Grau 10, Lima',
      timeZone: 'America/Lima',
      currency: 'EUR',
      ticketCount: 2,
      subtotalMinor: 8000,
      feesMinor: 900,
      totalMinor: 8900,
      status: 'PENDING',
      lines: [
        {
          optionTitle: 'Pista general',
          priceTypeTitle: 'Adulto',
          ticketCount: 2,
          priceMinor: 4000,
          feeMinor: 450,
          seats: [
            { section: 'A', row: '3', seat: '7' },
            { section: 'A', row: '3', seat: '8' },
          ],
        },
      ],
    });
    expect(order!.startsAt?.toISOString()).toBe('2030-03-14T01:30:00.000Z');
    expect(order!.marketPath).toMatch(/^\/market\/[^?]+\?show=/);
    expect(payment.amountMinor).toBe(order!.totalMinor);
    // The hold: BUY_INTENTION_MINUTES from the purchase.
    const ends = new Date(order!.expiresAt).getTime();
    expect(ends).toBeGreaterThan(before + 4 * 60_000);
    expect(ends).toBeLessThan(Date.now() + 61 * 60_000);
  });

  it('answers null for an unknown or malformed intention', async () => {
    expect(await paymentOrder('bi_doesnotexist1', getDb())).toBeNull();
    expect(await paymentOrder('pay_not_an_intention', getDb())).toBeNull();
  });
});
