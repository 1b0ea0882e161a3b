import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels, partners } from './partners';

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
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The outbox and delivery state of every webhook message. Written in the same transaction as the state
 * change that causes it; a message stays `pending` until a receiver answers 200/201/202/204.
 * `nextAttemptAt` doubles as a lease: a dispatcher that claims a message pushes it forward first.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text().primaryKey(), // msg_…: the stable webhook-id receivers dedupe on
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_messages_partner_idx').on(t.partnerId, t.createdAt),
    index('webhook_messages_channel_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending' and channel_id is not null`),
    index('webhook_messages_channel_idx')
      .on(t.channelId, t.createdAt)
      .where(sql`channel_id is not null`),
  ],
);

/** One row per delivery attempt: what we sent where, and what came back. */
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
