import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { combinations, events, priceTypes, resaleRules, shows, ticketOptions } from '@/db/schema/catalog';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's catalogue: events, shows, ticket options, price types, combinations and resale rules. */
export async function wipeCatalogTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  return {
    combinations: await deleted(tx.delete(combinations).where(eq(combinations.partnerId, id))),
    price_types: await deleted(tx.delete(priceTypes).where(eq(priceTypes.partnerId, id))),
    ticket_options: await deleted(tx.delete(ticketOptions).where(eq(ticketOptions.partnerId, id))),
    resale_rules: await deleted(tx.delete(resaleRules).where(eq(resaleRules.partnerId, id))),
    shows: await deleted(tx.delete(shows).where(eq(shows.partnerId, id))),
    events: await deleted(tx.delete(events).where(eq(events.partnerId, id))),
  };
}
