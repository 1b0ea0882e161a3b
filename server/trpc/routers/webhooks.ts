import { getDb } from '@/db';
import { listMessagesInput, messageRef, partnerRef, upsertEndpointInput } from '@/server/modules/webhooks';
import {
  getEndpoint,
  getMessage,
  listMessages,
  retryNow,
  rotateSigningSecret,
  sendTestMessage,
  upsertEndpoint,
} from '@/server/modules/webhooks';
import { protectedProcedure, router } from '../init';

/**
 * The partner's webhook receiver. Secrets are write-only: reads show hints, and the signing secret is
 * in the answer of the call that made it (first save, rotation) and nowhere else.
 */
const endpointRouter = router({
  get: protectedProcedure.input(partnerRef).query(({ input }) => getEndpoint(input.partnerId, getDb())),
  /** `signingSecret` is set only when this call created the endpoint. */
  upsert: protectedProcedure.input(upsertEndpointInput).mutation(({ input }) => upsertEndpoint(input)),
  rotateSecret: protectedProcedure
    .input(partnerRef)
    .mutation(async ({ input }) => ({ signingSecret: await rotateSigningSecret(input.partnerId, getDb()) })),
});

/** The delivery log. Mutations that make a message due ask for a dispatch after their commit (the service does). */
const messagesRouter = router({
  list: protectedProcedure.input(listMessagesInput).query(({ input }) => listMessages(input, getDb())),
  get: protectedProcedure.input(messageRef).query(({ input }) => getMessage(input.partnerId, input.messageId, getDb())),
  /** Pending: due now. Delivered: sent again with the same id (a replay). */
  retryNow: protectedProcedure
    .input(messageRef)
    .mutation(async ({ input }) => ({ messageId: await retryNow(input.partnerId, input.messageId) })),
  sendTest: protectedProcedure
    .input(partnerRef)
    .mutation(async ({ input }) => ({ messageId: await sendTestMessage(input.partnerId) })),
});

export const webhooksRouter = router({
  endpoint: endpointRouter,
  messages: messagesRouter,
});
