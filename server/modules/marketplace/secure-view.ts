import { and, eq } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import { showConfigurations } from '@/server/modules/catalog';
import { protectionOf, unlockState } from '@/server/modules/protection';
import { secureTicketPage, ticketsForSale } from '@/server/modules/tickets';
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

export async function secureView(token: string, now = new Date(), db: DbOrTx = getDb()) {
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
  const showCode = state === 'valid' && (unlocked || !protectionActive);
  const upcoming = ticket.startsAt.getTime() > now.getTime();
  const canTransfer =
    state === 'valid' &&
    upcoming &&
    (await ticketsForSale(ticket.partnerId, [ticket.ticketId], db).then(([t]) =>
      t ? transferAllowed(ticket.partnerId, t, db) : false,
    ));
  const { ticketAccess, previous, ...rest } = ticket;
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

export type SecureView = NonNullable<Awaited<ReturnType<typeof secureView>>>;
