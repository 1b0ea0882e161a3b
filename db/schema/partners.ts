import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  jsonb,
  pgTable,
  pgView,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { StoredPrimarySalesFee } from './primary-sales-fee';

/** A primary ticketing platform integrated with Encore. Every partner-owned row points here. */
export const partners = pgTable(
  'partners',
  {
    id: text().primaryKey(), // ptr_…
    name: text().notNull(),
    /**
     * `live`, or `test`: a live partner's test twin, a partner row of its own whose keys are
     * `sk_test_…` / `sk_test_ch_…`, whose rows make a data space live keys never see, and whose payments
     * always go through the sandbox. Never changes.
     */
    mode: text({ enum: ['live', 'test'] })
      .notNull()
      .default('live'),
    /** A test twin's live partner (one twin per live partner); null for live partners. */
    livePartnerId: text().references((): AnyPgColumn => partners.id, { onDelete: 'cascade' }),
    /** The primary sales fee when neither ticket, ticket option, show nor event sets one; set by staff. */
    primarySalesFee: jsonb().$type<StoredPrimarySalesFee>(),
    /** The partner's logo (an https image URL, set by staff), shown on every fan page beside its name. */
    logoUrl: text(),
    /** Where the partner's fans get help with a ticket (an https URL, set by staff); Encore's own when unset. */
    supportUrl: text(),
    /** The partner's support e-mail for fans (set by staff); Encore's own when unset. */
    supportEmail: text(),
    /**
     * The origins (`https://host[:port]`, set by staff) a fan may be sent back to (`returnTo`) and that may
     * frame the partner's embeddable fan pages. Empty: any returnTo is accepted and no page may be framed.
     */
    returnOrigins: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The origins (`https://host[:port]`, set by staff) whose pages may call the API with the partner's
     * publishable key (`pk_…`, the widget): CORS answers only them. Empty: any origin. A test twin has its own.
     */
    widgetOrigins: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Set while staff have disabled the partner: its keys answer 403. Nothing is deleted. */
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('partners_name_idx').on(t.name),
    index('partners_created_idx').on(t.createdAt),
    uniqueIndex('partners_live_partner_idx').on(t.livePartnerId),
    check(
      'partners_mode_twin_check',
      sql`(${t.mode} = 'live' and ${t.livePartnerId} is null) or (${t.mode} = 'test' and ${t.livePartnerId} is not null)`,
    ),
  ],
);

/**
 * API keys. Only a SHA-256 hash of the secret is stored (keys are 190+ bits of randomness, so a fast
 * hash is safe and keeps authentication at one indexed lookup). `prefix` is the visible start of
 * the key so staff and partners can tell keys apart. Several active secret keys per partner allow
 * rotation. A publishable key (`pk_live_…` / `pk_test_…`, the widget's) is not a secret: it is kept whole
 * in `publishable_key` to be shown, still checked by its hash; exactly one is active per partner row.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(), // key_…
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['partner', 'channels', 'publishable'] }).notNull(),
    /** A channels key (`sk_ch_`) belongs to one channel of the partner; null for partner keys. */
    channelId: text().references((): AnyPgColumn => channels.id, { onDelete: 'cascade' }),
    label: text().notNull().default(''),
    prefix: text().notNull(),
    hash: text().notNull(),
    /** The whole key, for publishable keys only (shown on the dashboard); null for secret keys. */
    publishableKey: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.hash),
    index('api_keys_partner_idx').on(t.partnerId, t.createdAt),
    // One active publishable key per partner row (live partner, test twin): the guard of a rotation.
    uniqueIndex('api_keys_one_publishable_idx')
      .on(t.partnerId)
      .where(sql`${t.kind} = 'publishable' and ${t.revokedAt} is null`),
    check('api_keys_publishable_key_check', sql`(${t.kind} = 'publishable') = (${t.publishableKey} is not null)`),
  ],
);

/**
 * An external platform (a channel) that pushes its resale listings into the partner's market through the
 * Channels API, with its own `sk_ch_` keys (several for rotation). Staff create it for a partner. Sales of
 * its listings are sent to `webhookUrl`, signed with `signingSecret` (Standard Webhooks). A disabled
 * channel's keys answer 403 and its listings leave the market; nothing is deleted.
 */
export const channels = pgTable(
  'channels',
  {
    id: text().primaryKey(), // chn_…
    partnerId: text()
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    webhookUrl: text(),
    signingSecret: text().notNull(),
    /** Where its payouts go (the payment provider's account or the sandbox's), once set up. */
    payoutAccountId: text(),
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('channels_partner_idx').on(t.partnerId, t.createdAt)],
);

/*
 * Views the partners module offers other modules' SQL (a table is read only through its owner).
 */

/** The partner-wide default primary sales fee staff set (null: none). For the ticket's fee resolution. */
export const partnerPrimarySalesFees = pgView('partner_primary_sales_fees', {
  partnerId: text().notNull(),
  fee: jsonb().$type<StoredPrimarySalesFee>(),
}).as(sql`select id as partner_id, primary_sales_fee as fee from ${partners}`);

/**
 * The channels that take webhooks now: a URL set and not disabled, with the URL and the signing secret. The
 * webhook dispatcher claims and delivers a channel's messages through it, in the claim's own statement.
 */
export const channelWebhookEndpoints = pgView('channel_webhook_endpoints', {
  channelId: text().notNull(),
  partnerId: text().notNull(),
  url: text().notNull(),
  signingSecret: text().notNull(),
}).as(
  sql`select id as channel_id, partner_id, webhook_url as url, signing_secret from ${channels} where webhook_url is not null and disabled_at is null`,
);
