import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { newId } from '@/server/lib/ids';
import { transaction, type Work } from '@/server/lib/transaction';
import { type ChannelWebhookMessage, type PartnerWebhookMessage, webhookMessage } from './messages';
import { type WebhookBody, webhookBody } from './schemas';

/** The dispatch job's id (webhooks/jobs.ts defines it; named here so the outbox needs no import of it). */
export const WEBHOOK_DISPATCH_JOB = 'webhooks.dispatch';

/** Asks, once the transaction commits, for a dispatch soon (merged with other asks within 25 ms). */
export function dispatchSoon(after: Work['after']): void {
  after.job(WEBHOOK_DISPATCH_JOB, {}, { merge: true });
}

const FAMILY_OF = new Map<string, string>(
  webhookMessage.options.map((o) => [o.shape.action.value, o.shape.family.value]),
);

/**
 * The envelope as stored, its action one of the declared messages (messages.ts) with its family. The types
 * check the data; it is not parsed again here, where a stricter reading could only fail a sale's commit.
 */
function declared(body: WebhookBody): WebhookBody {
  const msg = webhookBody.parse(body);
  if (FAMILY_OF.get(msg.action) !== msg.family) {
    throw new TypeError(`Undeclared webhook message: ${msg.family} / ${msg.action}`);
  }
  return msg;
}

/** A new message and its place in the delivery queue (`webhook_due`), due now: one statement. */
async function insertMessage(tx: DbOrTx, id: string, partnerId: string, channelId: string | null, msg: WebhookBody) {
  await tx.execute(sql`
    with m as (
      insert into webhook_messages (id, partner_id, channel_id, family, action, data)
      values (${id}, ${partnerId}, ${channelId}, ${msg.family}, ${msg.action}, ${JSON.stringify(msg.data)}::jsonb)
      returning id, partner_id, channel_id, next_attempt_at
    )
    insert into webhook_due (message_id, partner_id, channel_id, due_at)
    select id, partner_id, channel_id, next_attempt_at from m`);
}

/**
 * The outbox: records a message in the caller's transaction, so the state change and its webhook
 * commit or roll back together, and asks for a dispatch after the commit (a sweep every minute catches
 * anything a lost ask missed). Messages are recorded even when the partner has no endpoint yet or it
 * is disabled: they wait, they are never dropped. Given the database instead of a Work, it is its own
 * transaction.
 */
export async function enqueueWebhook(
  within: Work | Db,
  partnerId: string,
  body: PartnerWebhookMessage,
): Promise<string> {
  const msg = declared(body);
  return transaction(async ({ tx, after }) => {
    const id = newId('msg');
    await insertMessage(tx, id, partnerId, null, msg);
    dispatchSoon(after);
    return id;
  }, within);
}

/**
 * The outbox for a partner's channel (sales of its listings): the same delivery rules, retries and log as
 * the partner's webhooks, sent to the channel's webhook URL signed with the channel's secret. Held while
 * the channel has no URL or is disabled, never dropped.
 */
export async function enqueueChannelWebhook(
  within: Work | Db,
  partnerId: string,
  channelId: string,
  body: ChannelWebhookMessage,
): Promise<string> {
  const msg = declared(body);
  return transaction(async ({ tx, after }) => {
    const id = newId('msg');
    await insertMessage(tx, id, partnerId, channelId, msg);
    dispatchSoon(after);
    return id;
  }, within);
}
