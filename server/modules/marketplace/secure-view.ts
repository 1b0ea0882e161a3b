import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import { showConfigurations } from '@/server/modules/catalog';
import { protectionOf, unlockState } from '@/server/modules/protection';
import { lockTickets, markCodeShown, secureTicketPage, ticketsForSale } from '@/server/modules/tickets';
import { transferAllowed } from './transfer';

/**
 * What the secure view shows for its link. Only VALID (and unlocked) shows a code; every other state says
 * why there is none:
 * - `sold` / `transferred`: the link of a previous holder (the ticket changed hands; the new owner has a new link);
 * - `cancelled`: the show was cancelled · `deleted`: the partner deleted (invalidated) the ticket;
 * - `used`: admitted at the door · `listed`: on sale (a seller cannot enter with a ticket buyers may buy);
 * - `reissuing`: the partner is issuing the new owner a new code after a resale or transfer.
 */
export type SecureViewState =
  'valid' | 'listed' | 'reissuing' | 'used' | 'sold' | 'transferred' | 'cancelled' | 'deleted';

type SecureTicket = NonNullable<Awaited<ReturnType<typeof secureTicketPage>>>;

export interface SecureViewOut {
  ticket: Omit<SecureTicket, 'ticketAccess' | 'previous' | 'codeShownAt'>;
  state: SecureViewState;
  endedAt: Date | null;
  protectionActive: boolean;
  unlocksAt: Date;
  /** The access code: present only when the page may show it. */
  ticketAccess: SecureTicket['ticketAccess'];
  listingId: string | null;
  actions: { sell: boolean; transfer: boolean; calendar: boolean };
}

/**
 * Records that the holder of `token` is being shown the ticket's code, and answers whether it may be:
 * under the ticket's row lock (the lock listing create and relist take), the link must still be the
 * holder's, the ticket VALID and not admitted, and in no open listing. So a listing racing this reveal
 * either committed first (no code: the ticket is listed) or waits and then finds the code seen (while the
 * partner does not reissue, it is refused). Only the first reveal writes; later ones keep its moment.
 */
async function revealCode(ticketPk: string, token: string, db: DbOrTx): Promise<boolean> {
  return (db as Db).transaction(async (tx) => {
    const [locked] = await lockTickets(tx, [ticketPk]);
    if (!locked || locked.secureToken !== token || locked.status !== 'VALID' || locked.admittedAt) return false;
    const listed = await tx
      .select({ id: listingItems.listingId })
      .from(listingItems)
      .where(and(eq(listingItems.ticketPk, ticketPk), eq(listingItems.open, true)))
      .limit(1);
    if (listed.length) return false;
    await markCodeShown(tx, ticketPk);
    return true;
  });
}

/**
 * The secure view for a page that does not show the code (the transfer page, the sell action): the
 * same view without the code, so looking at it records no reveal.
 */
export function secureViewWithoutCode(token: string, db: DbOrTx) {
  return secureView(token, new Date(), db, { reveal: false });
}

/**
 * The secure view of a link. When it shows the code (`ticketAccess` not null), the reveal is recorded
 * first (`revealCode`): a code put on a holder's screen is a code that holder has.
 */
export async function secureView(
  token: string,
  now = new Date(),
  db: DbOrTx,
  opts: { reveal?: boolean } = {},
): Promise<SecureViewOut | null> {
  const ticket = await secureTicketPage(token, db);
  if (!ticket) return null;
  const [settings, configurations, open] = await Promise.all([
    protectionOf(ticket.partnerId, db),
    showConfigurations(ticket.showPk, db),
    db
      .select({ id: listings.id })
      .from(listingItems)
      .innerJoin(listings, eq(listings.id, listingItems.listingId))
      .where(and(eq(listingItems.ticketPk, ticket.pk), eq(listingItems.open, true)))
      .limit(1),
  ]);
  const state: SecureViewState = ticket.previous
    ? ticket.previous.reason === 'SOLD'
      ? 'sold'
      : 'transferred'
    : ticket.showStatus === 'CANCELLED'
      ? 'cancelled'
      : ticket.status !== 'VALID'
        ? 'deleted'
        : ticket.admittedAt
          ? 'used'
          : open.length
            ? 'listed'
            : ticket.reissuePending
              ? 'reissuing'
              : 'valid';
  const protectionActive = settings.active(ticket.eventPk, ticket.showPk);
  const { unlocksAt, unlocked } = unlockState(ticket.startsAt, configurations?.show, configurations?.event, now, {
    overrideHours: settings.unlockOverride(ticket.eventPk, ticket.showPk),
    defaultHours: settings.defaultUnlockHours,
  });
  // Without protection the code is not held back until the show (the partner shows its tickets as before).
  const showCode = opts.reveal !== false && state === 'valid' && (unlocked || !protectionActive);
  // The first reveal is recorded under the ticket's lock; refused (a listing or a change of hands got
  // there first), the view is read again and shows that instead of the code.
  if (showCode && !ticket.codeShownAt && !(await revealCode(ticket.pk, token, db)))
    return secureView(token, now, db, { reveal: false });
  const upcoming = ticket.startsAt.getTime() > now.getTime();
  const canTransfer =
    state === 'valid' &&
    upcoming &&
    (await ticketsForSale(ticket.partnerId, [ticket.ticketId], db).then(([t]) =>
      t ? transferAllowed(ticket.partnerId, t, db) : false,
    ));
  const { ticketAccess, previous, codeShownAt: _seen, ...rest } = ticket;
  return {
    ticket: rest,
    state,
    endedAt: previous?.at ?? null,
    protectionActive,
    unlocksAt,
    /** The access code: present only when the page may show it. */
    ticketAccess: showCode ? ticketAccess : null,
    listingId: open[0]?.id ?? null,
    actions: {
      sell: state === 'valid' && upcoming,
      transfer: canTransfer,
      calendar: !previous && state !== 'cancelled' && state !== 'deleted',
    },
  };
}
