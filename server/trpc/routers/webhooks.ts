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
import { audited } from '@/server/modules/audit';
import { auditActorOf, partnerProcedure, router } from '../init';

/**
 * The partner's webhook receiver. Secrets are write-only: reads show hints, and the signing secret is
 * in the answer of the call that made it (first save, rotation) and nowhere else.
 */
const endpointRouter = router({
  get: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(({ input }) => getEndpoint(input.partnerId, getDb())),
  /** `signingSecret` is set only when this call created the endpoint. */
  upsert: partnerProcedure('admin', 'develop')
    .input(upsertEndpointInput)
    .mutation(({ input, ctx }) =>
      audited(
        (work) => upsertEndpoint(input, work),
        {
          actor: auditActorOf(ctx.actor),
          action: 'webhook_endpoint.updated',
          partnerId: input.partnerId,
          target: { type: 'webhook_endpoint', id: input.partnerId },
          before: (tx) => getEndpoint(input.partnerId, tx),
          // A new endpoint's signing secret is in the answer; the record redacts it.
          after: (r) => ({ ...r.endpoint, signingSecret: r.signingSecret }),
        },
        getDb(),
      ),
    ),
  rotateSecret: partnerProcedure('admin', 'develop')
    .input(partnerRef)
    .mutation(async ({ input, ctx }) => ({
      signingSecret: await audited(
        ({ tx }) => rotateSigningSecret(input.partnerId, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'webhook_endpoint.secret_rotated',
          partnerId: input.partnerId,
          target: { type: 'webhook_endpoint', id: input.partnerId },
          before: async () => ({ signingSecretRotated: false }),
          after: () => ({ signingSecretRotated: true }),
        },
        getDb(),
      ),
    })),
});

/** The delivery log. Mutations that make a message due ask for a dispatch after their commit (the service does). */
const messagesRouter = router({
  list: partnerProcedure('read', 'read')
    .input(listMessagesInput)
    .query(({ input }) => listMessages(input, getDb())),
  get: partnerProcedure('read', 'read')
    .input(messageRef)
    .query(({ input }) => getMessage(input.partnerId, input.messageId, getDb())),
  /** Pending: due now. Delivered: sent again with the same id (a replay). */
  retryNow: partnerProcedure('admin', 'develop')
    .input(messageRef)
    .mutation(async ({ input, ctx }) => ({
      messageId: await audited(
        (work) => retryNow(input.partnerId, input.messageId, work),
        {
          actor: auditActorOf(ctx.actor),
          action: 'webhook_message.replayed',
          partnerId: input.partnerId,
          target: { type: 'webhook_message', id: input.messageId },
          before: async (tx) => ({ status: (await getMessage(input.partnerId, input.messageId, tx)).message.status }),
          after: async (_id, tx) => ({
            status: (await getMessage(input.partnerId, input.messageId, tx)).message.status,
          }),
        },
        getDb(),
      ),
    })),
  sendTest: partnerProcedure('admin', 'develop')
    .input(partnerRef)
    .mutation(async ({ input, ctx }) => ({
      messageId: await audited(
        (work) => sendTestMessage(input.partnerId, work),
        {
          actor: auditActorOf(ctx.actor),
          action: 'webhook_message.test_sent',
          partnerId: input.partnerId,
          target: { type: 'webhook_endpoint', id: input.partnerId },
          after: (messageId) => ({ messageId }),
        },
        getDb(),
      ),
    })),
});

export const webhooksRouter = router({
  endpoint: endpointRouter,
  messages: messagesRouter,
});
