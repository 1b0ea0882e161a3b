import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { webhookRequest, type WebhookMessage } from '@/server/modules/webhooks';
import {
  type VerifiedWebhook,
  verifyWebhook,
  type WebhookAction,
  type WebhookBody,
  type WebhookOf,
  WebhookVerificationError,
} from './index.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const sentAt = new Date('2027-06-12T20:00:00Z');

/** A message exactly as Encore's dispatcher sends it: its body and Standard Webhooks headers. */
function delivered(at = sentAt, signingSecret = secret) {
  return webhookRequest(
    {
      id: 'msg_2x9',
      family: 'ticket',
      action: 'ticket.updated',
      data: '{"id":"T-1","newOwnerEmail":"b@example.com","oldOwnerEmail":"a@example.com"}',
    },
    signingSecret,
    { name: 'X-Partner-Secret', value: 'shh' },
    at,
  );
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('verified what it should have refused');
}

describe('verifyWebhook', () => {
  it("accepts what Encore's signer sends, as text, as bytes and with fetch's Headers", () => {
    const { body, headers } = delivered();
    const expected = {
      id: 'msg_2x9',
      timestamp: sentAt,
      body: {
        family: 'ticket',
        action: 'ticket.updated',
        data: { id: 'T-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: 'a@example.com' },
      },
    };
    expect(verifyWebhook({ secret, payload: body, headers, now: sentAt })).toEqual(expected);
    expect(verifyWebhook({ secret, payload: Buffer.from(body), headers, now: sentAt })).toEqual(expected);
    expect(verifyWebhook({ secret, payload: body, headers: new Headers(headers), now: sentAt })).toEqual(expected);
    // Node's req.headers, in any case.
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook({ secret, payload: body, headers: upper, now: sentAt }).id).toBe('msg_2x9');
  });

  it('agrees with the standardwebhooks library, both ways', () => {
    const { body, headers } = delivered(new Date());
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ action: 'ticket.updated' });
    const signed = new Webhook(secret).sign('msg_lib', sentAt, body);
    const fromLibrary = {
      'webhook-id': 'msg_lib',
      'webhook-timestamp': String(sentAt.getTime() / 1000),
      'webhook-signature': signed,
    };
    expect(verifyWebhook({ secret, payload: body, headers: fromLibrary, now: sentAt }).id).toBe('msg_lib');
  });

  it('refuses a changed body, id or timestamp, and another secret', () => {
    const { body, headers } = delivered();
    const now = sentAt;
    expect(
      refusal(() => verifyWebhook({ secret, payload: body.replace('b@example.com', 'x@example.com'), headers, now })),
    ).toBe('No matching signature');
    expect(
      refusal(() => verifyWebhook({ secret, payload: body, headers: { ...headers, 'webhook-id': 'msg_other' }, now })),
    ).toBe('No matching signature');
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(
      refusal(() => verifyWebhook({ secret, payload: body, headers: { ...headers, 'webhook-timestamp': later }, now })),
    ).toBe('No matching signature');
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(refusal(() => verifyWebhook({ secret: other, payload: body, headers, now }))).toBe('No matching signature');
  });

  it('refuses a message older or newer than the tolerance (5 minutes by default)', () => {
    const { body, headers } = delivered();
    const at = (seconds: number) => new Date(sentAt.getTime() + seconds * 1000);
    expect(verifyWebhook({ secret, payload: body, headers, now: at(300) }).id).toBe('msg_2x9');
    expect(verifyWebhook({ secret, payload: body, headers, now: at(-300) }).id).toBe('msg_2x9');
    expect(refusal(() => verifyWebhook({ secret, payload: body, headers, now: at(301) }))).toBe(
      'Message timestamp too old',
    );
    expect(refusal(() => verifyWebhook({ secret, payload: body, headers, now: at(-301) }))).toBe(
      'Message timestamp too new',
    );
    expect(verifyWebhook({ secret, payload: body, headers, now: at(3600), toleranceSeconds: 3600 }).id).toBe('msg_2x9');
  });

  it('accepts any one matching v1 signature among several (a secret being rotated), ignoring other versions', () => {
    const { body, headers } = delivered();
    const old = delivered(sentAt, `whsec_${randomBytes(24).toString('base64')}`).headers['webhook-signature'];
    const signature = headers['webhook-signature'];
    const several = `v1a,${signature.slice(3)} ${old} ${signature}`;
    expect(
      verifyWebhook({ secret, payload: body, headers: { ...headers, 'webhook-signature': several }, now: sentAt }).id,
    ).toBe('msg_2x9');
    const onlyOthers = `v1a,${signature.slice(3)} ${old} v1,short`;
    expect(
      refusal(() =>
        verifyWebhook({ secret, payload: body, headers: { ...headers, 'webhook-signature': onlyOthers }, now: sentAt }),
      ),
    ).toBe('No matching signature');
  });

  it('refuses missing headers and a timestamp that is no number; a malformed secret is a setup error', () => {
    const { body, headers } = delivered();
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    expect(refusal(() => verifyWebhook({ secret, payload: body, headers: unsigned, now: sentAt }))).toMatch(
      /^Missing /,
    );
    expect(
      refusal(() =>
        verifyWebhook({ secret, payload: body, headers: { ...headers, 'webhook-timestamp': '1e9' }, now: sentAt }),
      ),
    ).toBe('webhook-timestamp is not a number of seconds');
    expect(() => verifyWebhook({ secret: 'whsec_', payload: body, headers, now: sentAt })).toThrow(TypeError);
    expect(() => verifyWebhook({ secret: 'not base64!', payload: body, headers, now: sentAt })).toThrow(TypeError);
  });
});

/** What a receiver does with a message: `switch` on its action narrows its data. */
function said(message: VerifiedWebhook): string {
  const { body } = message;
  switch (body.action) {
    case 'ticket.updated':
      return `${body.data.id}: ${body.data.oldOwnerEmail ?? 'nobody'} → ${body.data.newOwnerEmail}`;
    case 'ticket.refunded':
      return `${body.data.ids.join(', ')} refunded (${body.data.refundReason})`;
    case 'ticketShield.updated':
      return `${body.data.eventId}/${body.data.showId} protection ${body.data.status ? 'on' : 'off'}`;
    case 'test.ping':
      return `ping of ${body.data.partnerId}`;
    default:
      return `not handled here: ${body.action}`;
  }
}

describe('the verified body, typed from the OpenAPI document', () => {
  it('is told apart by its action', () => {
    const { body, headers } = delivered();
    expect(said(verifyWebhook({ secret, payload: body, headers, now: sentAt }))).toBe(
      'T-1: a@example.com → b@example.com',
    );
  });

  it("is the server's declared union of messages, and a wrong field or action does not compile", () => {
    // The generated union (client) and the declared one (server/modules/webhooks/messages.ts) are the same.
    expectTypeOf<WebhookAction>().toEqualTypeOf<WebhookMessage['action']>();
    expectTypeOf<WebhookBody>().toEqualTypeOf<WebhookMessage>();
    expectTypeOf<WebhookOf<'test.ping'>['data']['channelId']>().toEqualTypeOf<string | undefined>();
    const updated: WebhookBody = {
      family: 'ticket',
      action: 'ticket.updated',
      data: { id: 'T-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
    };
    const misspelled: WebhookBody = {
      family: 'ticket',
      action: 'ticket.updated',
      // @ts-expect-error ticket.updated names the ticket `id`
      data: { ticketId: 'T-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
    };
    // @ts-expect-error Encore sends no such action
    const unknown: WebhookAction = 'ticket.deleted';
    const narrowed = (b: WebhookBody) =>
      // @ts-expect-error ticketShield.updated's data has `status`; ticket.updated's has not
      b.action === 'ticket.updated' ? b.data.status : null;
    expect([updated.action, misspelled.action, unknown, narrowed(updated)]).toEqual([
      'ticket.updated',
      'ticket.updated',
      'ticket.deleted',
      undefined,
    ]);
  });
});
