import { and, count, desc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { mails } from '@/db/schema/mail';
import { notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { log } from '@/server/lib/log';
import { pageCountOf } from '@/server/lib/paging';
import { transaction, type Work } from '@/server/lib/transaction';
import { type ListMailsInput, listMailsInput } from './schemas';
import { SEND_MAIL_JOB } from './delivery';

const listColumns = {
  id: mails.id,
  partnerId: mails.partnerId,
  toAddress: mails.toAddress,
  kind: mails.kind,
  locale: mails.locale,
  subject: mails.subject,
  status: mails.status,
  attempts: mails.attempts,
  lastError: mails.lastError,
  createdAt: mails.createdAt,
  sentAt: mails.sentAt,
};

/** The staff mailbox: every mail, newest first, optionally one recipient's (exact address) or one partner's. */
export async function listMails(input: ListMailsInput, db: DbOrTx) {
  const q = listMailsInput.parse(input);
  const where = and(
    q.to ? eq(mails.toAddress, q.to.toLowerCase()) : undefined,
    q.partnerId ? eq(mails.partnerId, q.partnerId) : undefined,
  );
  const [items, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(mails)
      .where(where)
      .orderBy(desc(mails.createdAt), desc(mails.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(mails).where(where),
  ]);
  return { items, total, page: q.page, pageSize: q.pageSize, pageCount: pageCountOf(total, q.pageSize) };
}

/** One mail with its bodies, for the mailbox's detail view. */
export async function getMail(id: string, db: DbOrTx) {
  const [row] = await db.select().from(mails).where(eq(mails.id, id));
  if (!row) throw notFound('Mail not found');
  return row;
}

/**
 * Staff's "resend": the mail exactly as it was rendered, written again as a new queued mail (its own
 * id, status and attempts, so the original's record stays true) and sent by the same send job after the
 * commit; the minute sweep covers a lost queue write. The copy's id is returned (its mailbox page).
 */
export async function resendMail(
  id: string,
  within: Work | Db,
): Promise<{ id: string; resentFrom: string; partnerId: string | null; to: string }> {
  return transaction(async (work) => {
    const [original] = await work.tx.select().from(mails).where(eq(mails.id, id));
    if (!original) throw notFound('Mail not found');
    const copy = newId('mail');
    await work.tx.insert(mails).values({
      id: copy,
      partnerId: original.partnerId,
      toAddress: original.toAddress,
      kind: original.kind,
      locale: original.locale,
      subject: original.subject,
      textBody: original.textBody,
      htmlBody: original.htmlBody,
    });
    work.after.job(SEND_MAIL_JOB, { id: copy });
    log.info('mail resent by staff', { mailId: copy, resentFrom: id, to: original.toAddress });
    return { id: copy, resentFrom: id, partnerId: original.partnerId, to: original.toAddress };
  }, within);
}
