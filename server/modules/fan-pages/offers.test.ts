import { describe, expect, it } from 'vitest';
import type { BuyerListing } from './buyer-listings';
import { offersOf, quantitiesOf } from './offers';

/** A buyer listing as the buy page reads it; a channel's split slot when `channel` is given. */
function listing(id: string, over: Partial<BuyerListing> = {}): BuyerListing {
  return {
    id,
    type: 'SINGLE',
    status: 'ACTIVE',
    showPk: 'shw_1',
    ticketOptionId: 'GA',
    priceTypeId: null,
    ticketCount: 1,
    currency: 'EUR',
    priceMinor: 4200,
    feeMinor: 0,
    perTicketMinor: 4200,
    subtotalMinor: 4200,
    feesMinor: 0,
    totalMinor: 4200,
    ticketPks: [],
    seats: [{}],
    fromChannel: false,
    channelListingId: null,
    holdEndsAt: null,
    optionTitle: 'General',
    priceTypeTitle: null,
    faceMinor: 4000,
    ...over,
  };
}
const slot = (id: string, channelListingId: string, over: Partial<BuyerListing> = {}) =>
  listing(id, { fromChannel: true, channelListingId, ...over });

describe('buy page offers', () => {
  it('gathers a split channel listing’s tickets in one offer, in the listings’ order, and keeps the rest apart', () => {
    const offers = offersOf([
      slot('lst_a1', 'chl_a'),
      listing('lst_fan', { priceMinor: 4500 }),
      slot('lst_a2', 'chl_a', { seats: [{ seat: '2' }] }),
      slot('lst_b', 'chl_b', { type: 'PACK', ticketCount: 2 }),
      slot('lst_a3', 'chl_a'),
    ]);
    expect(offers.map((o) => [o.id, o.ids, o.split])).toEqual([
      ['lst_a1', ['lst_a1', 'lst_a2', 'lst_a3'], true],
      ['lst_fan', ['lst_fan'], false],
      ['lst_b', ['lst_b'], false],
    ]);
    expect(offers[0].seats).toEqual([{}, { seat: '2' }, {}]);
    expect(quantitiesOf(offers[0])).toEqual([1, 2, 3]);
    expect(quantitiesOf(offers[1])).toEqual([1]);
    expect(quantitiesOf(offers[2])).toEqual([2]);
  });

  it('keeps a channel listing of one ticket on sale a plain offer, and never mixes two prices', () => {
    const offers = offersOf([slot('lst_x1', 'chl_x'), slot('lst_x2', 'chl_x', { priceMinor: 5000 })]);
    expect(offers.map((o) => [o.ids, o.split])).toEqual([
      [['lst_x1'], false],
      [['lst_x2'], false],
    ]);
  });

  it('proposes at most 10 tickets of a large split listing (checkout takes up to 50 listings)', () => {
    const offers = offersOf(Array.from({ length: 30 }, (_, i) => slot(`lst_${i}`, 'chl_big')));
    expect(offers).toHaveLength(1);
    expect(offers[0].ids).toHaveLength(30);
    expect(quantitiesOf(offers[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
