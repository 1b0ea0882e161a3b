/**
 * Every message Encore sends to a webhook receiver, declared once: `{ family, action, data }` per action.
 * The outbox takes only these (a message not declared here, or a misspelled field, does not compile), the
 * OpenAPI document lists them under `webhooks` (server/http/openapi.ts) and the partner client's
 * `verifyWebhook` answers their union, generated from that document.
 */
import { z } from 'zod';
import { channelSaleResponse } from '@/server/modules/channels/schemas';

/** One message: its family, its action (`family.verb`), its data, and what the document says of it. */
function message<const F extends string, const A extends `${F}.${string}`, D extends z.ZodType>(
  family: F,
  action: A,
  data: D,
  about: { id: string; title: string; description: string },
) {
  return z.object({ family: z.literal(family), action: z.literal(action), data }).meta(about);
}

const ticketUpdatedData = z.object({
  id: z.string().meta({ description: 'Your ticketId' }),
  newOwnerEmail: z.string().meta({ description: 'Who holds the ticket now' }),
  oldOwnerEmail: z.string().nullable().meta({ description: 'Who held it before (null when nobody was named)' }),
});
const ticketUpdated = message('ticket', 'ticket.updated', ticketUpdatedData, {
  id: 'TicketUpdatedWebhook',
  title: 'A ticket changed hands',
  description:
    'Sent to your webhook endpoint when a ticket field changes, most often a transfer after a resale purchase.',
});

const ticketRefundedData = z.object({
  ids: z.array(z.string()).meta({ description: 'Your ticketIds of the purchase' }),
  buyerEmail: z.string().meta({ description: 'The buyer refunded' }),
  reason: z.string().meta({ description: 'Why, in words (as staff wrote it for a staff refund)' }),
  refundReason: z.enum(['SHOW_CANCELLED', 'STAFF_REFUND']),
});
const ticketRefunded = message('ticket', 'ticket.refunded', ticketRefundedData, {
  id: 'TicketRefundedWebhook',
  title: 'A resale purchase was refunded',
  description:
    'Sent to your webhook endpoint once per refunded purchase: its show was cancelled, or Encore staff refunded ' +
    'it. Ownership does not change here: whether the tickets stay valid is your call.',
});

const ticketShieldUpdatedData = z.object({
  status: z.boolean().meta({ description: 'true: protection is on (show the secure view URL); false: off' }),
  eventId: z.string().meta({ description: 'Your event (its externalReferenceId)' }),
  showId: z.string(),
});
const ticketShieldUpdated = message('ticketShield', 'ticketShield.updated', ticketShieldUpdatedData, {
  id: 'TicketShieldUpdatedWebhook',
  title: 'Protection switched on or off',
  description: 'Sent to your webhook endpoint when protection is switched on or off for an event or show.',
});

const testPingData = z.object({
  partnerId: z.string(),
  channelId: z.string().optional().meta({ description: "Present when sent to a channel's webhook URL" }),
  sentAt: z.string().meta({ description: 'When it was queued (ISO 8601)' }),
});
const testPing = message('test', 'test.ping', testPingData, {
  id: 'TestPingWebhook',
  title: 'A test message',
  description:
    "Sent when you or Encore staff send a test message from the dashboard (to your endpoint, or a channel's URL).",
});

const channelListingSold = message('channelListing', 'channelListing.sold', channelSaleResponse, {
  id: 'ChannelListingSoldWebhook',
  title: "A channel's listing was bought",
  description:
    "Channels API only: sent to the channel's webhook URL, signed with the channel's secret. Name the tickets " +
    'handed over at `fulfilmentUrl` before `fulfilBy`.',
});

const channelSaleRefunded = message(
  'channelSale',
  'channelSale.refunded',
  channelSaleResponse.extend({ reason: z.string().meta({ description: 'Why the buyer was refunded' }) }),
  {
    id: 'ChannelSaleRefundedWebhook',
    title: "A channel's sale was refunded",
    description:
      "Channels API only: sent to the channel's webhook URL when a sale was not fulfilled by its deadline or its " +
      'show was cancelled; the buyer got that part back and the channel is not paid for it.',
  },
);

/** Every message, told apart by `action`. */
export const webhookMessage = z.discriminatedUnion('action', [
  ticketUpdated,
  ticketRefunded,
  ticketShieldUpdated,
  testPing,
  channelListingSold,
  channelSaleRefunded,
]);
export type WebhookMessage = z.infer<typeof webhookMessage>;
/** What a partner's own webhook endpoint receives. */
export type PartnerWebhookMessage = Extract<WebhookMessage, { family: 'ticket' | 'ticketShield' | 'test' }>;
/** What a channel's webhook URL receives. */
export type ChannelWebhookMessage = Extract<WebhookMessage, { family: 'channelListing' | 'channelSale' | 'test' }>;

/** Each message's action, its schema and what it says (its `.meta()`), for the OpenAPI document. */
export function webhookMessages(): { action: WebhookMessage['action']; schema: z.ZodType; title: string }[] {
  return webhookMessage.options.map((schema) => ({
    action: schema.shape.action.value,
    schema,
    title: String(z.globalRegistry.get(schema)?.title ?? schema.shape.action.value),
  }));
}
