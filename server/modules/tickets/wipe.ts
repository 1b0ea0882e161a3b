import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { ticketBatchErrors, ticketBatches, ticketEvents, ticketPreviousLinks, tickets } from '@/db/schema/tickets';
import { deleted, type TestPartnerWipe, type WipeCounts } from '@/server/lib/wipe';

/** A test partner's tickets (history and old links included) and ticket batches. */
export async function wipeTicketsTestData(wipe: TestPartnerWipe, tx: DbOrTx): Promise<WipeCounts> {
  const id = wipe.partnerId;
  const ticketsOf = tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.partnerId, id));
  const batchesOf = tx.select({ id: ticketBatches.id }).from(ticketBatches).where(eq(ticketBatches.partnerId, id));
  return {
    ticket_events: await deleted(tx.delete(ticketEvents).where(inArray(ticketEvents.ticketPk, ticketsOf))),
    ticket_previous_links: await deleted(
      tx.delete(ticketPreviousLinks).where(inArray(ticketPreviousLinks.ticketPk, ticketsOf)),
    ),
    tickets: await deleted(tx.delete(tickets).where(eq(tickets.partnerId, id))),
    ticket_batch_errors: await deleted(
      tx.delete(ticketBatchErrors).where(inArray(ticketBatchErrors.batchId, batchesOf)),
    ),
    ticket_batches: await deleted(tx.delete(ticketBatches).where(eq(ticketBatches.partnerId, id))),
  };
}
