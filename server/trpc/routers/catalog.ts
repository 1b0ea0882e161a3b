import { getDb } from '@/db';
import { seatMapPreview, seatMapPreviewInput } from '@/server/modules/access-layer';
import { eventRef, listEventsInput, showRef } from '@/server/modules/catalog';
import { ticketDetailWithMarket } from '@/server/modules/ops';
import { staffEventInventory, staffEventInventoryInput } from '@/server/modules/market-data';
import {
  batchRef,
  getBatchDetail,
  getEventDetailWithTickets,
  getShowSummaryWithTickets,
  listBatches,
  listBatchesInput,
  listEventsWithTickets,
  listShowTickets,
  listShowTicketsInput,
  searchPartnerTickets,
  searchTicketsInput,
  ticketRef,
} from '@/server/modules/tickets';
import { partnerProcedure, router } from '../init';

/**
 * The events browser: one partner's events, shows, tickets and ticket batches, read-only. Every
 * procedure takes the partnerId and answers NOT_FOUND for an id that is not that partner's.
 */
export const catalogRouter = router({
  /** Newest first, offset pages, search on title or externalReferenceId. */
  events: partnerProcedure('read', 'read')
    .input(listEventsInput)
    .query(({ input }) => listEventsWithTickets(input, getDb())),
  /** The API's event representation plus our ids, ticket counts, combinations and rules by scope. */
  event: partnerProcedure('read', 'read')
    .input(eventRef)
    .query(({ input }) => getEventDetailWithTickets(input, getDb())),
  /** Heading of a show's ticket page. */
  show: partnerProcedure('read', 'read')
    .input(showRef)
    .query(({ input }) => getShowSummaryWithTickets(input, getDb())),
  /** Keyset pages by partner ticketId; search by ticketId prefix or whole buyer e-mail. */
  showTickets: partnerProcedure('read', 'read')
    .input(listShowTicketsInput)
    .query(({ input }) => listShowTickets(input, getDb())),
  batches: partnerProcedure('read', 'read')
    .input(listBatchesInput)
    .query(({ input }) => listBatches(input, getDb())),
  /** One batch's progress and a page of its failed tickets with their errors. */
  batch: partnerProcedure('read', 'read')
    .input(batchRef)
    .query(({ input }) => getBatchDetail(input, getDb())),
  /** Support: a ticket by our id, partner ticketId prefix or buyer e-mail, across all the partner's events. */
  searchTickets: partnerProcedure('read', 'read')
    .input(searchTicketsInput)
    .query(({ input }) => searchPartnerTickets(input, getDb())),
  /** Support: one ticket by our id with its partner ids, buyer, history, secure view and batch. */
  ticket: partnerProcedure('read', 'read')
    .input(ticketRef)
    .query(({ input }) => ticketDetailWithMarket(input, getDb())),
  /** The inventory the partner pushed for one event (PUT /v1/marketdata/events/{id}/inventory…). */
  eventInventory: partnerProcedure('read', 'read')
    .input(staffEventInventoryInput)
    .query(({ input }) => staffEventInventory(input, getDb())),
  /** The event's seat map drawn for one show with each section's offers, and the sections that do not match. */
  seatMap: partnerProcedure('read', 'read')
    .input(seatMapPreviewInput)
    .query(({ input }) => seatMapPreview(input, getDb())),
});
