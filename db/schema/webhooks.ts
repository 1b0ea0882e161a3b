import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, json, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels, partners } from './partners';
import { partnerRef, timestamps } from './columns';

/**
 * A partner's webhook receiver (the spec has no registration endpoint: staff set it in the dashboard).
 * `signingSecret` is the Standard Webhooks secret (`whsec_…`), shown once to staff; it must stay
 * readable to sign, so it is stored as is, like the optional secret header the partner asks for.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  partnerId: text()
    .primaryKey()
    .references(() => partners.id, { onDelete: 'cascade' }),
  url: text().notNull(),
  enabled: boolean().notNull().default(true),
  secretHeaderName: text(),
  secretHeaderValue: text(),
  signingSecret: text().notNull(),
  ...timestamps(),
});

/**
 * The outbox and delivery state of every webhook message. Written in the same transaction as the state
 * change that causes it; a message stays `pending` until a receiver answers 200/201/202/204. What is due
 * is tracked in `webhook_due` (one row per pending message), so no index of this table covers a column
 * delivery changes: recording an attempt here is a HOT update (no index writes; the migration leaves
 * room on each page with fillfactor 50). `nextAttemptAt` is what staff see as the next try.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text().primaryKey(), // msg_…: the stable webhook-id receivers dedupe on
    partnerId: partnerRef(),
    /** Set for a message to one of the partner's channels (its webhook URL and secret), else to the partner. */
    channelId: text().references(() => channels.id, { onDelete: 'cascade' }),
    family: text().notNull(),
    action: text().notNull(),
    data: jsonb().notNull(),
    status: text({ enum: ['pending', 'delivered'] })
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    /**
     * The successful attempt, kept on the message instead of a `webhook_attempts` row (one write per
     * delivery instead of two); failed attempts are rows. Null while pending, and for messages delivered
     * before it existed (their attempt is a row). A replay moves it to a row. `json`, not `jsonb`: stored
     * as the dispatcher wrote it, with no conversion (read only when staff open the message).
     */
    deliveredAttempt: json().$type<DeliveredAttempt>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_messages_partner_idx').on(t.partnerId, t.createdAt),
    index('webhook_messages_channel_idx')
      .on(t.channelId, t.createdAt)
      .where(sql`channel_id is not null`),
  ],
);

/**
 * A successful attempt as kept on its message (`webhook_messages.delivered_attempt`). Its number, start
 * and status are the message's `attempts`, `lastAttemptAt` and `lastStatusCode` (nothing attempts a
 * delivered message again until a replay moves this to a row).
 */
export interface DeliveredAttempt {
  url: string;
  durationMs: number;
  /** Absent when the answer had no body. */
  responseBody?: string | null;
  /**
   * The `webhook-signature` header sent. The other headers follow from the message (its id and
   * `lastAttemptAt`) and are rebuilt on reading (`sentHeaders`, delivery.ts): a delivery writes ~150
   * bytes here instead of ~400, which PostgreSQL parses and stores per delivered message.
   */
  signature?: string;
  /** The name of the partner's secret header, when one was sent (its value is never kept). */
  secretHeader?: string;
  /** The headers as sent, as messages delivered before `signature` existed kept them. */
  requestHeaders?: Record<string, string>;
}

/**
 * The queue of pending messages: a row per message waiting for a (next) attempt, deleted in the
 * statement that records its delivery. A dispatcher that claims a message sets `leasedUntil` first (a
 * dispatcher that dies mid-flight leaves it due again when the lease ends). No index covers the lease,
 * so taking one is a HOT update (fillfactor 50 leaves the room); small rows on their own pages, so the
 * claim's writes never touch the messages' pages or indexes.
 */
export const webhookDue = pgTable(
  'webhook_due',
  {
    messageId: text()
      .primaryKey()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    partnerId: text().notNull(),
    channelId: text(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    leasedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Per receiver, so a claim walks only the due rows of enabled endpoints (a partner that never set one
    // up can hold a backlog that no claim reads).
    index('webhook_due_partner_idx')
      .on(t.partnerId, t.dueAt)
      .where(sql`channel_id is null`),
    index('webhook_due_channel_idx')
      .on(t.channelId, t.dueAt)
      .where(sql`channel_id is not null`),
  ],
);

/**
 * One row per failed delivery attempt (and per successful one made before `delivered_attempt` existed,
 * or replayed since): what we sent where, and what came back.
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    messageId: text()
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    partnerId: text().notNull(),
    attemptNo: integer().notNull(),
    url: text().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    durationMs: integer().notNull(),
    statusCode: integer(),
    error: text(),
    /** The first 1 KiB of the receiver's answer. */
    responseBody: text(),
    /**
     * The request headers sent (webhook-id, -timestamp, -signature, …); the partner's secret header
     * with its value masked. Null for attempts made before they were stored.
     */
    requestHeaders: jsonb().$type<Record<string, string>>(),
    success: boolean().notNull(),
  },
  (t) => [index('webhook_attempts_message_idx').on(t.messageId, t.attemptNo)],
);
