import { expect } from 'vitest';
import { getDb } from '@/db';
import { createListing, NO_FEES, setMarketTerms } from '@/server/modules/marketplace';
import { makePartner, pushEvent, testShow } from './fixtures';
import { postRules } from './market';
import { syncTickets } from './ticket-api';

const SELLER = 'seller@fans.test';

/** A show at Sala Roja (Lima), option "Pista general" with price type "Adulto", T7/T8 in section A row 3. */
export async function seatedMarket(name: string) {
  const { partner, apiKey } = await makePartner(name);
  const ref = `evt-${partner.id}`;
  await pushEvent(apiKey, ref, [
    testShow('1', {
      date: '2030-03-14T01:30:00Z',
      location: { venueName: 'Sala Roja', raw: 'Av. Grau 10, Lima', timeZone: 'America/Lima' },
      ticketOptions: [{ title: 'Pista general', ticketId: 'GA', description: 'g', currency: 'EUR', price: '40.00' }],
      priceTypes: [{ priceTypeId: 'ADULT', title: 'Adulto' }],
    }),
  ]);
  await postRules(apiKey, [
    { externalReferenceEventId: ref, showId: '1', ticketOptionId: 'GA', priceTypeId: 'ADULT', ruleType: 'COMBINATION' },
  ]);
  const res = await syncTickets(
    apiKey,
    ['7', '8'].map((seat) => ({
      externalReferenceEventId: ref,
      showId: '1',
      ticketOptionId: 'GA',
      priceTypeId: 'ADULT',
      ticketId: `T${seat}`,
      orderId: 'O1',
      buyer: SELLER,
      ticketAccess: { type: 'OTHER', locator: 'x' },
      price: 40,
      props: { seating: { section: 'A', row: '3', seat } },
    })),
  );
  expect(res.body).toMatchObject({ data: { imported: 2 } });
  // 10 % + 0.50 per ticket: 4.50 on a 40.00 ticket.
  await setMarketTerms(partner.id, { ...NO_FEES, buyerFeePercent: 10, buyerFeeFixed: 0.5 }, getDb());
  const listing = await createListing(
    { partnerId: partner.id, sellerEmail: SELLER, ticketIds: ['T7', 'T8'], price: 40 },
    getDb(),
  );
  return { partnerId: partner.id, ref, listing };
}
