import type { Db, DbOrTx } from '@/db';
import { AppError, badRequest, conflict, notFound } from '@/server/lib/errors';
import { transaction } from '@/server/lib/transaction';
import { lockTickets, type SaleTicket, ticketsForSale, transferOwnership } from '@/server/modules/tickets';
import { protectionOf } from '@/server/modules/protection';
import { enqueueWebhook } from '@/server/modules/webhooks';
import { openItemsOf } from './channel-listings';
import { resaleRulesOf } from './listings';
import { notOwnedBy, notOwnedError } from './ownership';

/** Does the partner's rule P2P_TRANSFER allow handing this ticket to another e-mail (no rule: no)? */
export async function transferAllowed(partnerId: string, t: SaleTicket, db: DbOrTx): Promise<boolean> {
  const rules = await resaleRulesOf(partnerId, t, db);
  return (rules.P2P_TRANSFER as { allowed?: boolean } | undefined)?.allowed === true;
}

/**
 * Peer-to-peer transfer: the owner hands tickets to another e-mail without payment, where the partner's
 * rule P2P_TRANSFER allows it (no rule: not allowed — a partner opts in). Ownership is asked live; a
 * listed ticket must be taken off sale first. Same effects as a sale: new owner, fresh secure link,
 * `ticket.updated` with the old and new owner, in one transaction.
 */
export async function transferTickets(
  partnerId: string,
  input: { ticketIds: string[]; fromEmail: string; toEmail: string },
  db: Db,
) {
  const from = input.fromEmail.trim().toLowerCase();
  const to = input.toEmail.trim().toLowerCase();
  if (from === to)
    throw badRequest(
      'The new owner is the current owner',
      [{ path: 'toEmail', message: 'is the current owner' }],
      'SAME_OWNER',
    );
  const list = await ticketsForSale(partnerId, [...new Set(input.ticketIds)], db);
  const missing = input.ticketIds.filter((id) => !list.some((t) => t.ticketId === id));
  if (missing.length) throw notFound(`Ticket not found: ${missing.join(', ')}`, 'NOT_FOUND');
  for (const t of list) {
    if (t.status !== 'VALID' || t.showStatus !== 'LIVE')
      throw conflict(`Ticket ${t.ticketId} can no longer be transferred`, 'NOT_TRANSFERABLE');
    if (!(await transferAllowed(partnerId, t, db))) {
      throw new AppError('FORBIDDEN', `Transfers are not allowed for ticket ${t.ticketId}`, {
        fanReason: 'TRANSFER_NOT_ALLOWED',
      });
    }
  }
  const notOwned = await notOwnedBy(partnerId, from, list, db);
  if (notOwned.length) throw notOwnedError(notOwned);
  return transaction(async (work) => {
    // The tickets' row locks first (a listing created or relisted takes them too), then the checks that
    // must hold when they change hands, read on the locked rows: still valid, show still on, not listed.
    // The holder is checked by transferOwnership (heldBy) under the same locks.
    await lockTickets(
      work.tx,
      list.map((t) => t.pk),
    );
    const locked = await ticketsForSale(
      partnerId,
      list.map((t) => t.ticketId),
      work.tx,
    );
    const gone = locked.find((t) => t.status !== 'VALID' || t.showStatus !== 'LIVE');
    if (gone) throw conflict(`Ticket ${gone.ticketId} can no longer be transferred`, 'NOT_TRANSFERABLE');
    const listed = await openItemsOf(
      work.tx,
      list.map((t) => t.pk),
    );
    if (listed.length)
      throw conflict('A listed ticket cannot be transferred; take it off sale first', 'TRANSFER_LISTED');
    const { reissue } = await protectionOf(partnerId, work.tx);
    const changed = await transferOwnership(
      work.tx,
      list.map((t) => t.pk),
      to,
      { reason: 'TRANSFERRED', reissue, heldBy: from },
    );
    for (const c of changed) {
      await enqueueWebhook(work, partnerId, {
        family: 'ticket',
        action: 'ticket.updated',
        data: { id: c.ticketId, newOwnerEmail: to, oldOwnerEmail: c.oldOwnerEmail },
      });
    }
    return { ticketIds: changed.map((c) => c.ticketId), newOwnerEmail: to };
  }, db);
}
