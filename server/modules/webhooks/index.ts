/**
 * Webhooks: the partner's receiver, the outbox (`enqueueWebhook`, in the caller's transaction), the
 * dispatcher and the delivery log. Owns the tables of db/schema/webhooks.ts.
 */
export { dispatchDue, webhookRequest } from './delivery';
export * from './jobs';
export * from './schemas';
export * from './delivery-log';
export * from './endpoints';
export * from './outbox';
export { webhookBacklog } from './backlog';
export { wipeWebhooksTestData } from './wipe';
