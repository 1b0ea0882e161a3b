import { and, eq, lt, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db, DbOrTx, Tx } from '@/db';
import { mails, type MailStatus } from '@/db/schema/mail';
import { env } from '@/server/env';
import { defaultLocale, type Locale } from '@/server/lib/i18n';
import { newId } from '@/server/lib/ids';
import { errorFields, log } from '@/server/lib/log';
import type { Work } from '@/server/lib/transaction';
import { renderMail } from './render';
import type { MailData, MailKind } from './templates';

/** The job that sends one queued mail after its transaction committed (defined in ./jobs.ts). */
export const SEND_MAIL_JOB = 'mail.send';

export type QueuedMail = {
  [K in MailKind]: {
    /** The partner the mail is about (null for mails of no partner); a deleted partner takes its mails. */
    partnerId: string | null;
    to: string;
    kind: K;
    /** The fan's language when the caller knows it; else DEFAULT_LANG. */
    locale?: Locale;
    data: MailData[K];
  };
}[MailKind];

/**
 * Renders a mail and writes it in the caller's transaction, so a rolled-back purchase sends nothing and
 * a committed one never loses its mail; the send job is queued after the commit. Given a bare
 * transaction (a caller with no after-commit list), the minute sweep queues the job instead.
 */
export async function queueMail(within: Work | Tx, mail: QueuedMail): Promise<string> {
  const tx = 'after' in within ? within.tx : within;
  const locale = mail.locale ?? defaultLocale();
  const rendered = await renderMail(mail.kind, locale, mail.data);
  const id = newId('mail');
  await tx.insert(mails).values({
    id,
    partnerId: mail.partnerId,
    toAddress: mail.to.trim().toLowerCase(),
    kind: mail.kind,
    locale,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
  });
  if ('after' in within) within.after.job(SEND_MAIL_JOB, { id });
  return id;
}

const g = globalThis as typeof globalThis & { __encoreMailer?: { url: string; transport: Transporter } };

/** One pooled SMTP transport per SMTP_URL (tests change it between cases). */
function transportFor(url: string): Transporter {
  if (g.__encoreMailer?.url !== url) {
    g.__encoreMailer?.transport.close();
    g.__encoreMailer = {
      url,
      transport: nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    };
  }
  return g.__encoreMailer.transport;
}

export type DeliveryOutcome = { id: string; status: MailStatus | 'busy' | 'missing' };

/**
 * The send job's work for one mail. Idempotent: only a `queued` mail is sent, under its row lock (a
 * second run at the same time skips it), and it is marked `sent` in the same transaction. With SMTP_URL
 * unset the mail is marked `stored` (read in the dashboard mailbox) and logged. A failed send records
 * its error and throws, so the job retries; on the job's last attempt the mail is marked `failed`.
 */
export async function deliverMail(
  id: string,
  // The handle, not a transaction: the mail's row lock and its record commit in a transaction of their own.
  db: Db,
  opts: { lastAttempt?: boolean } = {},
): Promise<DeliveryOutcome> {
  let failure: unknown = null;
  const outcome = await db.transaction(async (tx): Promise<DeliveryOutcome> => {
    const [row] = await tx.select().from(mails).where(eq(mails.id, id)).for('update', { skipLocked: true });
    if (!row) {
      const [exists] = await tx.select({ id: mails.id }).from(mails).where(eq(mails.id, id));
      return { id, status: exists ? 'busy' : 'missing' };
    }
    if (row.status !== 'queued') return { id, status: row.status };
    const smtpUrl = env().SMTP_URL;
    const fields = { mailId: id, kind: row.kind, to: row.toAddress, partnerId: row.partnerId };
    if (!smtpUrl) {
      await tx
        .update(mails)
        .set({ status: 'stored', attempts: sql`${mails.attempts} + 1`, sentAt: sql`now()`, lastError: null })
        .where(eq(mails.id, id));
      log.info('mail stored (no SMTP_URL): read it in the dashboard mailbox', { ...fields, subject: row.subject });
      return { id, status: 'stored' };
    }
    try {
      await transportFor(smtpUrl).sendMail({
        from: env().MAIL_FROM,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        headers: { 'X-Encore-Mail-Id': row.id },
      });
    } catch (err) {
      failure = err;
      const status = opts.lastAttempt ? 'failed' : 'queued';
      await tx
        .update(mails)
        .set({ status, attempts: sql`${mails.attempts} + 1`, lastError: String((err as Error)?.message ?? err) })
        .where(eq(mails.id, id));
      log.warn(opts.lastAttempt ? 'mail failed for good' : 'mail not sent; the job retries', {
        ...fields,
        ...errorFields(err),
      });
      return { id, status };
    }
    await tx
      .update(mails)
      .set({ status: 'sent', attempts: sql`${mails.attempts} + 1`, sentAt: sql`now()`, lastError: null })
      .where(eq(mails.id, id));
    log.info('mail sent', fields);
    return { id, status: 'sent' };
  });
  // Thrown after the commit, so the error and the attempt stay recorded while the job retries.
  if (failure && !opts.lastAttempt) throw failure;
  return outcome;
}

/**
 * Mails whose send job never ran (the queue was unreachable after the commit, or the writer had no
 * after-commit list): queued, never attempted, older than a minute. The sweep job queues their sends.
 */
export async function unsentMails(limit = 200, db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ id: mails.id })
    .from(mails)
    .where(
      and(eq(mails.status, 'queued'), eq(mails.attempts, 0), lt(mails.createdAt, sql`now() - interval '1 minute'`)),
    )
    .orderBy(mails.createdAt)
    .limit(limit);
  return rows.map((r) => r.id);
}
