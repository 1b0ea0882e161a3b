/**
 * Query inputs shared by the delivery log's server page (prefetch) and its client components, which
 * must ask with the same input to find the prefetched answer. (A plain module: server components
 * cannot call functions exported by a client module.)
 */

/** The smallest page of the log, read for the list of the partner's actions. */
export const actionsQueryInput = (partnerId: string) => ({ partnerId, pageSize: 1 });
