/**
 * Tickets: the partner's issued tickets (import by batch, lifecycle, admission, URLs) and the staff views
 * of them. Owns the tables of db/schema/tickets.ts (tickets, ticket_batches, ticket_batch_errors,
 * ticket_events); depends on the catalogue, which it validates tickets against. Publishes events.ts;
 * reacts (reactions/) to show cancellations.
 */
export * from './browse';
export * from './contracts';
export * from './events';
export * from './examples';
export * from './fees';
export * from './jobs';
export * from './lifecycle';
export * from './reactions/shows-cancelled';
export * from './schemas';
export * from './ticket-import';
export * from './support';
export * from './urls';
export * from './sale';
export * from './wipe';
