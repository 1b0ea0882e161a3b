/**
 * Webhooks: the partner's receiver, the messages Encore sends (`webhookMessage`, declared once), the outbox
 * (`enqueueWebhook`, in the caller's transaction; it takes only those messages), the dispatcher and the
 * delivery log. Owns the tables of db/schema/webhooks.ts.
 */
export { dispatchDue, webhookRequest } from './delivery';
export { requestDispatch, webhookDispatchJob } from './jobs';
export { listMessagesInput, messageRef, partnerRef, upsertEndpointInput } from './schemas';
export {
  getMessage,
  listMessages,
  retryNow,
  sendChannelTestMessage,
  sendTestMessage,
  webhookDeliveryStats,
} from './delivery-log';
export { getEndpoint, rotateSigningSecret, upsertEndpoint } from './endpoints';
export { enqueueChannelWebhook, enqueueWebhook } from './outbox';
export { webhookMessage, webhookMessages, type PartnerWebhookMessage, type WebhookMessage } from './messages';
export { webhookBacklog } from './backlog';
export { wipeWebhooksTestData } from './wipe';
