import { describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { webhookMessage } from './messages';
import { enqueueChannelWebhook, enqueueWebhook } from './outbox';

/** Never reached: the outbox refuses an undeclared message before it opens its transaction. */
const noDatabase = null as unknown as Db;

describe('the messages the outbox takes', () => {
  it('are the declared ones: an unknown action or a misspelled field does not compile', () => {
    // Compiled, never called: each line below must be a type error (tsc fails on an unused expectation).
    const unsent = () => [
      // @ts-expect-error no such action
      enqueueWebhook(noDatabase, 'ptr_1', { family: 'ticket', action: 'ticket.deleted', data: { id: 'T-1' } }),
      enqueueWebhook(noDatabase, 'ptr_1', {
        family: 'ticket',
        action: 'ticket.updated',
        // @ts-expect-error ticket.updated names the ticket `id`
        data: { ticketId: 'T-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
      }),
      enqueueWebhook(noDatabase, 'ptr_1', {
        family: 'ticketShield',
        action: 'ticketShield.updated',
        // @ts-expect-error `status` is a boolean
        data: { status: 'on', eventId: 'E-1', showId: '1' },
      }),
      // @ts-expect-error a channel's message is not sent to the partner's endpoint
      enqueueWebhook(noDatabase, 'ptr_1', { family: 'channelSale', action: 'channelSale.refunded', data: {} }),
      // @ts-expect-error nor a partner's to a channel
      enqueueChannelWebhook(noDatabase, 'ptr_1', 'chn_1', { family: 'ticket', action: 'ticket.updated', data: {} }),
    ];
    expect(typeof unsent).toBe('function');
  });

  it('are refused at run time too when the action is not declared, or not with its family', async () => {
    const undeclared = { family: 'ticket', action: 'ticket.deleted', data: {} } as never;
    await expect(enqueueWebhook(noDatabase, 'ptr_1', undeclared)).rejects.toThrow(
      'Undeclared webhook message: ticket / ticket.deleted',
    );
    const misfiled = { family: 'test', action: 'ticket.updated', data: {} } as never;
    await expect(enqueueChannelWebhook(noDatabase, 'ptr_1', 'chn_1', misfiled)).rejects.toThrow(
      'Undeclared webhook message: test / ticket.updated',
    );
  });

  it('say family.verb, each action once', () => {
    const actions = webhookMessage.options.map((o) => o.shape.action.value);
    expect(new Set(actions).size).toBe(actions.length);
    for (const o of webhookMessage.options)
      expect(o.shape.action.value.startsWith(`${o.shape.family.value}.`)).toBe(true);
  });
});
