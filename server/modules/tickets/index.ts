/**
 * Tickets: the partner's issued tickets (import by batch, lifecycle, admission, URLs) and the staff views
 * of them. Owns the tables of db/schema/tickets.ts (tickets, ticket_batches, ticket_batch_errors,
 * ticket_events); depends on the catalogue, which it validates tickets against. Publishes events.ts;
 * reacts (reactions/) to show cancellations.
 */
export {
  batchRef,
  getBatchDetail,
  getEventDetailWithTickets,
  getShowSummaryWithTickets,
  listBatches,
  listBatchesInput,
  listEventsWithTickets,
  listShowTickets,
  listShowTicketsInput,
} from './browse';
export {
  admitTicketRoute,
  admitTicketsRoute,
  createTicketsRoute,
  deleteTicketRoute,
  getBatchRoute,
  salePublicUrlRoute,
  secureUrlRoute,
  syncTicketsRoute,
  ticketsRoutes,
  updateTicketRoute,
} from './contracts';
export { onTicketsChangedHands, onTicketsInvalidated, type TicketChangeOfHands } from './events';
export { resolvePrimarySalesFee } from './fees';
export { showTicketSections } from './sections';
export { acceptTicketBatch, importTicketBatchJob, resumeTicketBatchesJob } from './jobs';
export { admitTicket, admitTickets, invalidateTicket, updateTicket } from './lifecycle';
export { invalidateTicketsOfShows } from './reactions/shows-cancelled';
export { type TicketCreate, ticketsRequestSchema } from './schemas';
export {
  acceptTickets,
  getBatch,
  importTickets,
  processBatch,
  storeVouchedTickets,
  syncTickets,
} from './ticket-import';
export {
  getTicketDetail,
  searchPartnerTickets,
  searchTicketsInput,
  type TicketHistoryEntry,
  ticketRef,
} from './support';
export {
  reissueDelayStats,
  secureTicketPage,
  secureTokensOf,
  secureViewByToken,
  secureViewUrl,
  ticketsAwaitingReissue,
} from './urls';
export {
  codeRevealedError,
  lockTickets,
  markCodeShown,
  partnerOfTicket,
  type SaleTicket,
  saleTicketByPk,
  sellerTicketRows,
  ticketsByPk,
  ticketsForSale,
  ticketsOfBuyer,
  ticketsOfOrder,
  ticketsOfOrders,
  transferOwnership,
} from './sale';
export { wipeTicketsTestData } from './wipe';
