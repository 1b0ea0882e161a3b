/**
 * Webhooks: the partner's receiver, the outbox (`enqueueWebhook`, in the caller's transaction), the
 * dispatcher and the delivery log. Owns the tables of db/schema/webhooks.ts.
 */
export { dispatchDue, type DispatchOptions, type DispatchResult, webhookRequest } from './delivery';
export * from './jobs';
export { retryDelayMs, SUCCESS_STATUSES } from './schedule';
export * from './schemas';
export * from './service';
