import { kickWebhookDispatch } from '@/server/modules/webhooks/jobs';
import { listMessagesInput, messageRef, partnerRef, upsertEndpointInput } from '@/server/modules/webhooks/schemas';
import {
  getEndpoint,
  getMessage,
  listMessages,
  retryNow,
  rotateSigningSecret,
  sendTestMessage,
  upsertEndpoint,
} from '@/server/modules/webhooks/service';
import { protectedProcedure, router } from '../init';

/**
 * The partner's webhook receiver. Secrets are write-only: reads show hints, and the signing secret is
 * in the answer of the call that made it (first save, rotation) and nowhere else.
 */
const endpointRouter = router({
  get: protectedProcedure.input(partnerRef).query(({ input }) => getEndpoint(input.partnerId)),
  /** `signingSecret` is set only when this call created the endpoint. */
  upsert: protectedProcedure.input(upsertEndpointInput).mutation(async ({ input }) => {
    const result = await upsertEndpoint(input);
    // Enabling an endpoint releases the messages it held; deliver them now rather than at the sweep.
    kickWebhookDispatch();
    return result;
  }),
  rotateSecret: protectedProcedure
    .input(partnerRef)
    .mutation(async ({ input }) => ({ signingSecret: await rotateSigningSecret(input.partnerId) })),
});

/** The delivery log. Mutations that make a message due kick the dispatcher, so delivery starts at once. */
const messagesRouter = router({
  list: protectedProcedure.input(listMessagesInput).query(({ input }) => listMessages(input)),
  get: protectedProcedure.input(messageRef).query(({ input }) => getMessage(input.partnerId, input.messageId)),
  /** Pending: due now. Delivered: sent again with the same id (a replay). */
  retryNow: protectedProcedure.input(messageRef).mutation(async ({ input }) => {
    const messageId = await retryNow(input.partnerId, input.messageId);
    kickWebhookDispatch();
    return { messageId };
  }),
  sendTest: protectedProcedure.input(partnerRef).mutation(async ({ input }) => {
    const messageId = await sendTestMessage(input.partnerId);
    kickWebhookDispatch();
    return { messageId };
  }),
});

export const webhooksRouter = router({
  endpoint: endpointRouter,
  messages: messagesRouter,
});
