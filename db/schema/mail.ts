import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { partners } from './partners';

export const MAIL_STATUSES = ['queued', 'sent', 'stored', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Every mail Encore sends (server/modules/mail), written in the transaction that causes it and sent
 * after the commit by the `mail.send` job: `queued` until then; `sent` through SMTP_URL; `stored` when no
 * SMTP server is configured (staff read it in the dashboard mailbox); `failed` once the job gave up.
 * The rendered subject and bodies are kept, so the mailbox shows exactly what was (or would be) sent.
 */
export const mails = pgTable(
  'mails',
  {
    id: text().primaryKey(), // mail_…
    partnerId: text().references(() => partners.id, { onDelete: 'cascade' }),
    toAddress: text().notNull(), // lower-cased
    kind: text().notNull(),
    locale: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text().notNull(),
    status: text({ enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mails_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('mails_partner_created_idx').on(t.partnerId, t.createdAt.desc()),
    index('mails_to_created_idx').on(t.toAddress, t.createdAt.desc()),
    // The sweep's look-up: mails whose send job never ran.
    index('mails_queued_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued'`),
  ],
);
