import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Who changed what, when: one row per staff action or change to a partner's configuration, written in
 * the transaction of the change. Append-only: a trigger (migration 0034) refuses UPDATE and DELETE for
 * every role. `partner_id` has no foreign key on purpose: the record outlives what it describes, and
 * staff-member changes are global (null).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    /** Ordered by insertion: the keyset for pages, newest first. */
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorKind: text({ enum: ['staff', 'partner_user', 'partner_key', 'channel_key', 'system'] }).notNull(),
    actorId: text().notNull(),
    /** As shown to staff: the member's e-mail, or a key's visible prefix (never the key). */
    actorLabel: text().notNull(),
    partnerId: text(),
    /** `<thing>.<what happened>`, e.g. `api_key.created`, `partner.fees.updated`. */
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    /** The changed thing before and after, secrets redacted. */
    before: jsonb(),
    after: jsonb(),
    requestId: text(),
  },
  (t) => [
    index('audit_log_partner_idx').on(t.partnerId, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
    index('audit_log_actor_idx').on(t.actorLabel, t.id),
    index('audit_log_at_idx').on(t.at),
  ],
);
