import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/encore-api.js';

type BodyOf<W> = W extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/**
 * What Encore posts to your receiver: `{ family, action, data }`, one of the messages the OpenAPI document
 * lists under `webhooks`, told apart by `action` (`switch (body.action)` narrows `data`). An Encore newer than
 * this package may send an action it does not know yet: keep a `default` branch.
 */
export type WebhookBody = { [A in keyof webhooks]: BodyOf<webhooks[A]> }[keyof webhooks];

/** The actions Encore sends (`ticket.updated`, `ticketShield.updated`, `test.ping`…). */
export type WebhookAction = WebhookBody['action'];

/** One action's body: `WebhookOf<'ticket.updated'>['data']['newOwnerEmail']`. */
export type WebhookOf<A extends WebhookAction> = Extract<WebhookBody, { action: A }>;

/** A verified message: its id (the same on every delivery attempt: deduplicate by it), when it was signed, its body. */
export interface VerifiedWebhook {
  id: string;
  timestamp: Date;
  body: WebhookBody;
}

/** The request's headers: a `Headers` (fetch, Next.js) or a plain object (Node's `req.headers`, Express). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The endpoint's signing secret, `whsec_…`, shown once when the endpoint was created. */
  secret: string;
  /** The request body exactly as received (bytes or text), before any JSON parsing. */
  payload: string | Uint8Array;
  headers: WebhookHeaders;
  /** How far `webhook-timestamp` may be from now, in seconds (default 300): older messages are replays. */
  toleranceSeconds?: number;
  /** The clock to compare with (default: now). */
  now?: Date;
}

/** The message is not Encore's, was changed, or is too old: answer 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks a webhook's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`):
 * HMAC-SHA256 of `id.timestamp.payload` under the secret, compared in constant time with each `v1,`
 * signature the header lists (there are several while a secret is being rotated), and the timestamp within
 * the tolerance. Answers the parsed message; throws `WebhookVerificationError` otherwise.
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhook {
  const id = headerOf(input.headers, 'webhook-id');
  const timestamp = headerOf(input.headers, 'webhook-timestamp');
  const signatures = headerOf(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const sentAt = Number(timestamp);
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (now - sentAt > tolerance) throw new WebhookVerificationError('Message timestamp too old');
  if (sentAt - now > tolerance) throw new WebhookVerificationError('Message timestamp too new');

  const payload = typeof input.payload === 'string' ? Buffer.from(input.payload, 'utf8') : input.payload;
  const expected = createHmac('sha256', keyOf(input.secret)).update(`${id}.${timestamp}.`).update(payload).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('No matching signature');

  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The payload is not JSON');
  }
  return { id, timestamp: new Date(sentAt * 1000), body: body as WebhookBody };
}

/** The secret's key: the base64 after `whsec_`. A secret that is no such thing is a setup error, not a bad message. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new TypeError('verifyWebhook: the secret must be the endpoint signing secret (whsec_ and base64)');
  }
  return key;
}

function headerOf(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(' ') : value;
}
