import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { webhookAttempts, webhookDue, webhookEndpoints, webhookMessages } from '@/db/schema/webhooks';
import { notFound } from '@/server/lib/errors';
import { transaction, type Work } from '@/server/lib/transaction';
import { sentHeaders } from './delivery';
import { getChannel, getPartner } from '@/server/modules/partners';
import { type ListMessagesInput, listMessagesInput } from './schemas';
import { dispatchSoon, enqueueChannelWebhook, enqueueWebhook } from './outbox';

/** The partner's webhook log, or (`channelId`) one channel's. */
export async function listMessages(input: ListMessagesInput, db: DbOrTx) {
  const { partnerId, channelId, status, action, page, pageSize } = listMessagesInput.parse(input);
  const where = and(
    eq(webhookMessages.partnerId, partnerId),
    channelId ? eq(webhookMessages.channelId, channelId) : isNull(webhookMessages.channelId),
    status ? eq(webhookMessages.status, status) : undefined,
    action ? eq(webhookMessages.action, action) : undefined,
  );
  const [items, [{ total }], actions] = await Promise.all([
    db
      .select()
      .from(webhookMessages)
      .where(where)
      .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(webhookMessages).where(where),
    db
      .selectDistinct({ action: webhookMessages.action })
      .from(webhookMessages)
      .where(
        and(
          eq(webhookMessages.partnerId, partnerId),
          channelId ? eq(webhookMessages.channelId, channelId) : isNull(webhookMessages.channelId),
        ),
      )
      .orderBy(webhookMessages.action),
  ]);
  return {
    items,
    total,
    page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
    actions: actions.map((a) => a.action),
  };
}

export async function getMessage(partnerId: string, messageId: string, db: DbOrTx) {
  const [message] = await db
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.partnerId, partnerId)));
  if (!message) throw notFound('Webhook message not found');
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.messageId, messageId))
    .orderBy(webhookAttempts.attemptNo, webhookAttempts.id);
  const kept = message.deliveredAttempt;
  // The successful attempt lives on the message (id 0: it has no row).
  const attempts: (typeof webhookAttempts.$inferSelect)[] = kept
    ? [
        ...rows,
        {
          id: 0,
          messageId,
          partnerId,
          attemptNo: message.attempts,
          url: kept.url,
          startedAt: message.lastAttemptAt ?? message.createdAt,
          durationMs: kept.durationMs,
          statusCode: message.lastStatusCode,
          error: null,
          responseBody: kept.responseBody ?? null,
          requestHeaders: sentHeaders(messageId, message.lastAttemptAt ?? message.createdAt, kept),
          success: true,
        },
      ]
    : rows;
  return { message, attempts };
}

/**
 * "Retry now": a pending message becomes due at once; a delivered one is sent again (manual replay,
 * same message id, so receivers that dedupe ignore it).
 */
export async function retryNow(partnerId: string, messageId: string, within: Work | Db) {
  return transaction(async ({ tx, after }) => {
    // A replay first moves the delivered attempt kept on the message to an attempt row; the message is
    // pending again and due now (a message already in the queue, even leased, is due now).
    const [kept] = await tx
      .select({
        attempts: webhookMessages.attempts,
        lastAttemptAt: webhookMessages.lastAttemptAt,
        lastStatusCode: webhookMessages.lastStatusCode,
        deliveredAttempt: webhookMessages.deliveredAttempt,
      })
      .from(webhookMessages)
      .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.partnerId, partnerId)))
      .for('update');
    const a = kept?.deliveredAttempt;
    if (kept && a) {
      const startedAt = kept.lastAttemptAt ?? new Date();
      await tx.insert(webhookAttempts).values({
        messageId,
        partnerId,
        attemptNo: kept.attempts,
        url: a.url,
        startedAt,
        durationMs: a.durationMs,
        statusCode: kept.lastStatusCode,
        error: null,
        responseBody: a.responseBody ?? null,
        requestHeaders: sentHeaders(messageId, startedAt, a),
        success: true,
      });
    }
    const rows = await tx.execute<{ message_id: string }>(sql`
      with msg as (
        update webhook_messages
        set status = 'pending', next_attempt_at = now(), delivered_at = null, delivered_attempt = null
        where id = ${messageId} and partner_id = ${partnerId}
        returning id, partner_id, channel_id
      )
      insert into webhook_due (message_id, partner_id, channel_id, due_at)
      select id, partner_id, channel_id, now() from msg
      on conflict (message_id) do update set due_at = excluded.due_at, leased_until = null
      returning message_id`);
    const [row] = rows;
    if (!row) throw notFound('Webhook message not found');
    dispatchSoon(after);
    return row.message_id;
  }, within);
}

/** Queues a harmless `test.ping` message so staff and partner can check the receiver end to end. */
export async function sendTestMessage(partnerId: string, within: Work | Db): Promise<string> {
  return transaction(async (work) => {
    await getPartner(partnerId, work.tx);
    return enqueueWebhook(work, partnerId, {
      family: 'test',
      action: 'test.ping',
      data: { partnerId, sentAt: new Date().toISOString() },
    });
  }, within);
}

/** A `test.ping` to one of the partner's channels, to check its receiver and signature end to end. */
export async function sendChannelTestMessage(partnerId: string, channelId: string, within: Work | Db) {
  return transaction(async (work) => {
    await getChannel(partnerId, channelId, work.tx);
    return enqueueChannelWebhook(work, partnerId, channelId, {
      family: 'test',
      action: 'test.ping',
      data: { partnerId, channelId, sentAt: new Date().toISOString() },
    });
  }, within);
}

/**
 * Delivery state across all partners, for the operations view: what is waiting, what is held back by
 * a missing or disabled endpoint, what is failing, and how old the oldest waiting message is. The
 * pending figures read the delivery queue (`webhook_due`); the 24-hour count scans delivered messages.
 */
export async function webhookDeliveryStats(db: DbOrTx) {
  const [pending] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      held: sql<number>`(count(*) filter (where ${webhookDue.channelId} is null and ${webhookEndpoints.enabled} is not true))::int`,
      failing: sql<number>`(count(*) filter (where ${webhookMessages.attempts} > 0))::int`,
      oldestPendingAt: sql<Date | null>`min(${webhookMessages.createdAt})`.mapWith(webhookMessages.createdAt),
    })
    .from(webhookDue)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDue.messageId))
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.partnerId, webhookDue.partnerId));
  const [delivered] = await db
    .select({ delivered24h: sql<number>`count(*)::int` })
    .from(webhookMessages)
    .where(
      and(eq(webhookMessages.status, 'delivered'), sql`${webhookMessages.deliveredAt} > now() - interval '24 hours'`),
    );
  return {
    pending: pending.pending,
    /** Pending because the partner has no endpoint or it is disabled: waiting by design, not failing. */
    held: pending.held,
    /** Pending after at least one failed attempt. */
    failing: pending.failing,
    oldestPendingAt: pending.oldestPendingAt ?? null,
    delivered24h: delivered.delivered24h,
  };
}
