import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { listings } from '@/db/schema/marketplace';
import { publicBaseUrl } from '@/server/env';
import { type AppError, badRequest, notFound } from '@/server/lib/errors';
import { httpOriginOf, returnToAllowed } from '@/server/lib/return-origins';
import { showDirectory } from '@/server/modules/catalog';
import { withOneTimeToken } from '@/server/modules/fans';
import { getIntegration, getPartner } from '@/server/modules/partners';
import { ticketsForSale, ticketsOfOrder } from '@/server/modules/tickets';
import { openListingOfTicket } from './pages';
import { assertPurchasable, listingOfTicket, listingStatusNow } from '@/server/modules/marketplace';

/*
 * The URLs Encore hands partners to send fans into its pages. All absolute, built on PUBLIC_BASE_URL,
 * carrying Encore's ids (never the partner's, which may hold any character). Each checks that what it
 * names exists for this partner, so a partner learns of a wrong id now, not from a fan.
 */

function url(path: string, params: Record<string, string | undefined>): string {
  const u = new URL(`${publicBaseUrl()}${path}`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

async function showOf(partnerId: string, eventRef: string, showId: string, db: DbOrTx) {
  const show = showDirectory(db);
  const rows = await db
    .select({ eventPk: show.eventPk, showPk: show.showPk, showId: show.showId })
    .from(show)
    .where(and(eq(show.partnerId, partnerId), eq(show.eventRef, eventRef)));
  if (!rows.length) throw notFound('Event not found');
  const found = rows.find((r) => r.showId === showId);
  if (!found) throw notFound('Show not found');
  return found;
}

/** GET /v1/marketplace/buyingflow/url/entrypoint: the event's resale market for one show. */
export async function buyingFlowUrl(
  partnerId: string,
  q: {
    externalReferenceEventId: string;
    showId: string;
    returnTo?: string;
    returnURL?: string;
    lang?: string;
    ticketOptionId?: string;
    'loginTrust[user]'?: string;
  },
  db: DbOrTx,
): Promise<string> {
  await checkReturnTo(partnerId, q.returnTo ? 'returnTo' : 'returnURL', q.returnTo ?? q.returnURL, db);
  const { eventPk, showPk } = await showOf(partnerId, q.externalReferenceEventId, q.showId, db);
  const entry = url(`/market/${eventPk}`, {
    show: showPk,
    ticketOptionId: q.ticketOptionId,
    lang: q.lang,
    returnTo: q.returnTo ?? q.returnURL,
  });
  return trusted(entry, partnerId, q['loginTrust[user]'], db);
}

/**
 * A partner with allowed return origins may send fans back only to one of them: another
 * origin is a 400 naming the field, so no Encore link can lead a fan off to a site of anyone's choosing.
 * Without origins, any absolute URL is accepted here (the partner asks for its own link), but the fan pages
 * show it only on the partner's own site (`partnerBackLink`), and the partner's dashboard page warns.
 */
async function checkReturnTo(
  partnerId: string,
  field: 'returnTo' | 'returnURL',
  value: string | undefined,
  db: DbOrTx,
) {
  if (value === undefined) return;
  // Read now, not from the proxy's short-lived copy: a removed origin is refused by every instance at once.
  const { returnOrigins: origins } = await getPartner(partnerId, db);
  if (origins.length === 0 ? httpOriginOf(value) !== null : returnToAllowed(value, origins)) return;
  throw badRequest(`${field} must be on one of the partner's allowed return origins: ${origins.join(', ')}`, [
    { path: field, message: `is not on an allowed return origin (${origins.join(', ')})`, in: 'query' },
  ]);
}

/** With a trusted login (anchor notes), the URL carries a one-time token signing that user in. */
function trusted(entry: string, partnerId: string, user: string | undefined, db: DbOrTx): Promise<string> | string {
  return user ? withOneTimeToken(entry, partnerId, user, db) : entry;
}

/** The selling entrypoints' query: the ticket or order, the language and the optional way back. */
interface SellingFlowQuery {
  lang?: string;
  returnTo?: string;
  returnURL?: string;
}

/** The selling flow's `returnTo` (optional), checked like the buying flow's; the value the URL carries. */
async function sellingReturnTo(partnerId: string, q: SellingFlowQuery, db: DbOrTx) {
  await checkReturnTo(partnerId, q.returnTo ? 'returnTo' : 'returnURL', q.returnTo ?? q.returnURL, db);
  return q.returnTo ?? q.returnURL;
}

/**
 * Sync on demand: a ticket or order Encore was never sent, for a partner with a verification
 * endpoint, gets the partner's resale entry with `sync=1` (the access layer's URL for such tickets).
 * That page asks the partner for the signed-in fan's tickets, stores the vouched ones and goes on to
 * the sell form, or says the partner does not list it for this fan. Without an endpoint: `otherwise`.
 */
async function syncEntryUrl(
  partnerId: string,
  target: { ticketId: string } | { orderId: string },
  q: SellingFlowQuery,
  returnTo: string | undefined,
  otherwise: AppError,
  db: DbOrTx,
) {
  const { verificationUrl } = await getIntegration(partnerId, db);
  if (!verificationUrl) throw otherwise;
  return url(`/resale/${encodeURIComponent(partnerId)}`, {
    sync: '1',
    ...target,
    lang: q.lang,
    returnTo,
  });
}

/** GET /v1/marketplace/sellingflow/url/entrypoint: starts listing one ticket. */
export async function sellingFlowUrl(partnerId: string, q: SellingFlowQuery & { ticketId: string }, db: DbOrTx) {
  const returnTo = await sellingReturnTo(partnerId, q, db);
  const [ticket] = await ticketsForSale(partnerId, [q.ticketId], db);
  if (!ticket) return syncEntryUrl(partnerId, { ticketId: q.ticketId }, q, returnTo, notFound('Ticket not found'), db);
  return url(`/sell/${ticket.pk}`, { lang: q.lang, returnTo });
}

/** GET /v1/marketplace/sellingflow/url/order/entrypoint: starts a bulk sale of an order's tickets. */
export async function orderSellingFlowUrl(partnerId: string, q: SellingFlowQuery & { orderId: string }, db: DbOrTx) {
  const returnTo = await sellingReturnTo(partnerId, q, db);
  const list = await ticketsOfOrder(partnerId, q.orderId, db);
  if (!list.length)
    return syncEntryUrl(partnerId, { orderId: q.orderId }, q, returnTo, notFound('Order not found'), db);
  // The first ticket of the order stands for it: the page lists the order's tickets from it.
  return url(`/sell/${list[0].pk}`, { order: '1', lang: q.lang, returnTo });
}

/**
 * GET /v1/events/tickets/salePublicUrl: "filtered to that ticket". While the ticket is listed (on sale or
 * held by a buyer) its own listing's page; otherwise the event's market at the ticket's show, naming the
 * ticket so the page says it is not on sale (and, should it be listed later, leads to its listing).
 */
export async function salePublicUrl(partnerId: string, ticketId: string, lang: string, db: DbOrTx) {
  const [ticket] = await ticketsForSale(partnerId, [ticketId], db);
  if (!ticket) throw notFound('Ticket not found');
  const listingId = await openListingOfTicket(ticket.pk, db);
  if (listingId) return url(`/listing/${listingId}`, { lang });
  return url(`/market/${ticket.eventPk}`, { show: ticket.showPk, ticket: ticket.pk, lang });
}

/** GET /v1/marketplace/sellingflow/details/url: view or manage the ticket's listing. */
export async function listingDetailsUrl(
  partnerId: string,
  ticketId: string,
  sellerEmail: string | undefined,
  db: DbOrTx,
) {
  const listing = await listingOfTicket(partnerId, ticketId, sellerEmail, db);
  return url(`/listing/${listing.id}`, {});
}

/**
 * POST /v1/marketplace/checkout/url: the checkout page for these listings. Nothing is held yet: the
 * buyer's intention is made when they start paying there (a URL must not hold tickets for a fan who
 * never opens it). The listings must be the partner's, on sale, and of one show and ticket option.
 */
export async function checkoutUrl(
  partnerId: string,
  listingIds: string[],
  loginTrust: { user: string } | undefined,
  db: DbOrTx,
): Promise<string> {
  const ids = [...new Set(listingIds)];
  const rows = await db
    .select({
      id: listings.id,
      // Its status now: an expired hold is buyable (holds.ts).
      status: listingStatusNow(),
      showPk: listings.showPk,
      ticketOptionId: listings.ticketOptionId,
    })
    .from(listings)
    .where(and(eq(listings.partnerId, partnerId), inArray(listings.id, ids)));
  assertPurchasable(ids, rows, 'checkout', 'listingIds');
  return trusted(url('/checkout', { listings: ids.join(',') }), partnerId, loginTrust?.user, db);
}

/**
 * The partner's static resale entry page (one generic URL, shown on its dashboard page and in
 * `GET /v1/me`): the fan signs in and sees all their tickets of this partner with each one's sell status.
 */
export function resaleEntryUrl(partnerId: string): string {
  return url(`/resale/${encodeURIComponent(partnerId)}`, {});
}
