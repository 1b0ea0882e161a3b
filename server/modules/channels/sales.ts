import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, type Tx } from '@/db';
import { channelListings, type ChannelSeat, channelSales, channelSaleTickets } from '@/db/schema/channels';
import { env, publicBaseUrl } from '@/server/env';
import { AppError, badRequest, conflict, formatPath, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { fromMinorUnits } from '@/server/lib/money';
import { transaction, type Work } from '@/server/lib/transaction';
import { showDirectory } from '@/server/modules/catalog';
import { payoutStatus, setUpPayoutAccount } from '@/server/modules/payments';
import {
  type ChannelListingSold,
  channelSeller,
  deliverChannelSale,
  refundChannelSale,
  ticketsInOpenListings,
} from '@/server/modules/marketplace';
import { protectionOf } from '@/server/modules/protection';
import { lockTickets, ticketsForSale } from '@/server/modules/tickets';
import { enqueueChannelWebhook } from '@/server/modules/webhooks';
import type { ChannelCaller } from './listings';
import { channelSalesQuery, type ChannelSaleView, fulfilmentBody } from './schemas';

export const EXPIRE_CHANNEL_SALE_JOB = 'channels.expireSale';
const HOUR = 3600_000;
/** Even a sale just before the show gives the channel this long to hand the tickets over. */
const MIN_FULFILMENT_MS = 30 * 60_000;

/** When a sale made now must be fulfilled: CHANNEL_FULFILMENT_HOURS, not past the show's start, at least 30 min. */
function fulfilmentDeadline(now: Date, showStartsAt: Date): Date {
  const by = Math.min(now.getTime() + env().CHANNEL_FULFILMENT_HOURS * HOUR, showStartsAt.getTime());
  return new Date(Math.max(by, now.getTime() + MIN_FULFILMENT_MS));
}

type SaleRow = typeof channelSales.$inferSelect;

/** A sold channel listing as its sales name it: the channel's id and the partner's catalogue ids. */
async function soldListing(channelListingId: string, db: DbOrTx) {
  const directory = showDirectory(db);
  const [listing] = await db
    .select({
      id: channelListings.id,
      partnerId: channelListings.partnerId,
      channelId: channelListings.channelId,
      externalId: channelListings.externalId,
      eventRef: directory.eventRef,
      showId: directory.showId,
      ticketOptionId: channelListings.ticketOptionId,
      priceTypeId: channelListings.priceTypeId,
    })
    .from(channelListings)
    .innerJoin(directory, eq(directory.showPk, channelListings.showPk))
    .where(eq(channelListings.id, channelListingId));
  if (!listing) throw new Error(`channel listing ${channelListingId} of a sale is missing`);
  return listing;
}

async function viewOf(sale: SaleRow, db: DbOrTx): Promise<ChannelSaleView> {
  return saleView(sale, await soldListing(sale.channelListingId, db));
}

function saleView(
  sale: SaleRow,
  listing: { externalId: string; eventRef: string; showId: string; ticketOptionId: string; priceTypeId: string | null },
  seats?: { ticketId?: string; seating: Record<string, unknown> }[] | null,
): ChannelSaleView {
  const money = (minor: number) => fromMinorUnits(minor, sale.currency)!;
  return {
    saleId: sale.id,
    status: sale.status,
    listingId: listing.externalId,
    eventId: listing.eventRef,
    showId: listing.showId,
    ticketOptionId: listing.ticketOptionId,
    priceTypeId: listing.priceTypeId,
    quantity: sale.quantity,
    ...(seats ? { seats: seats.map((s) => ({ ...(s.ticketId ? { ticketId: s.ticketId } : {}), ...s.seating })) } : {}),
    buyerEmail: sale.buyerEmail,
    currency: sale.currency,
    price: money(sale.priceMinor),
    amount: money(sale.priceMinor * sale.quantity),
    payout: money(sale.payoutMinor),
    fulfilBy: sale.fulfilBy.toISOString(),
    fulfilmentUrl: `${publicBaseUrl()}/v1/channels/sales/${sale.id}/fulfilment`,
    ticketIds: sale.ticketIds ?? [],
    fulfilledAt: sale.fulfilledAt?.toISOString() ?? null,
    refundedAt: sale.refundedAt?.toISOString() ?? null,
    createdAt: sale.createdAt.toISOString(),
  };
}

/**
 * Channel listings bought (subscribed to the marketplace in server/wiring.ts; runs in the paying
 * transaction): one sale per market listing, PENDING_FULFILMENT until the channel names the tickets, and
 * `channelListing.sold` queued for the channel in the same transaction (outbox). The deadline's job is
 * sent after the commit; the minute sweep covers a lost one.
 */
export async function recordChannelSales(work: Work, sold: ChannelListingSold[]): Promise<void> {
  const { tx, after } = work;
  const now = new Date();
  for (const s of sold) {
    const listing = await soldListing(s.channelListingId, tx);
    const [sale] = await tx
      .insert(channelSales)
      .values({
        id: newId('chs'),
        partnerId: listing.partnerId,
        channelId: listing.channelId,
        channelListingId: listing.id,
        listingId: s.listingId,
        intentionId: s.intentionId,
        paymentId: s.paymentId,
        buyerEmail: s.buyerEmail,
        quantity: s.quantity,
        currency: s.currency,
        priceMinor: s.priceMinor,
        paidMinor: s.paidMinor,
        payoutMinor: s.payoutMinor,
        fulfilBy: fulfilmentDeadline(now, s.showStartsAt),
      })
      .returning();
    await enqueueChannelWebhook(work, listing.partnerId, listing.channelId, {
      family: 'channelListing',
      action: 'channelListing.sold',
      data: saleView(sale, listing, s.seats),
    });
    after.job(EXPIRE_CHANNEL_SALE_JOB, { saleId: sale.id }, { runAt: sale.fulfilBy, singletonKey: sale.id });
  }
}

async function saleOf(caller: ChannelCaller, saleId: string, db: DbOrTx, lock = false) {
  const q = db
    .select()
    .from(channelSales)
    .where(
      and(
        eq(channelSales.id, saleId),
        eq(channelSales.partnerId, caller.partnerId),
        eq(channelSales.channelId, caller.channelId),
      ),
    );
  const [sale] = lock ? await q.for('update') : await q;
  if (!sale) throw notFound('Sale not found');
  return sale;
}

/** `GET /v1/channels/sales/{saleId}`: one of the calling channel's sales (404 for any other's). */
export async function getChannelSale(caller: ChannelCaller, saleId: string, db: DbOrTx) {
  return viewOf(await saleOf(caller, saleId, db), db);
}

/** `GET /v1/channels/sales`: the calling channel's sales, newest first, a page at a time, by state. */
export async function listChannelSales(caller: ChannelCaller, query: unknown, db: DbOrTx) {
  const q = channelSalesQuery.parse(query);
  const directory = showDirectory(db);
  const where = and(
    eq(channelSales.partnerId, caller.partnerId),
    eq(channelSales.channelId, caller.channelId),
    q.status ? eq(channelSales.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        sale: channelSales,
        externalId: channelListings.externalId,
        eventRef: directory.eventRef,
        showId: directory.showId,
        ticketOptionId: channelListings.ticketOptionId,
        priceTypeId: channelListings.priceTypeId,
      })
      .from(channelSales)
      .innerJoin(channelListings, eq(channelListings.id, channelSales.channelListingId))
      .innerJoin(directory, eq(directory.showPk, channelListings.showPk))
      .where(where)
      .orderBy(sql`${channelSales.createdAt} desc`, asc(channelSales.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(channelSales).where(where),
  ]);
  return {
    items: rows.map(({ sale, ...listing }) => saleView(sale, listing)),
    page: q.page,
    pageSize: q.pageSize,
    total,
  };
}

/**
 * `POST /v1/channels/sales/{saleId}/fulfilment`: the channel names the partner's tickets it hands to the
 * buyer. They must be exactly `quantity` distinct tickets of the listing's show and ticket option (and
 * price type), valid, not admitted, not on sale as a fan's listing, and the very tickets the listing
 * named, if it named them. Then, in one transaction, they become the buyer's (fresh secure links; the
 * partner gets `ticket.updated`; the buyer is mailed the links) and the sale is FULFILLED. Naming the
 * same tickets again answers the sale; a sale refunded or fulfilled with other tickets is a 409.
 */
export async function fulfilChannelSale(
  caller: ChannelCaller,
  saleId: string,
  body: unknown,
  db: DbOrTx,
): Promise<ChannelSaleView> {
  const parsed = fulfilmentBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`Invalid request body: ${formatPath(issue.path) || 'body'}: ${issue.message}`, [
      { path: formatPath(issue.path), message: issue.message },
    ]);
  }
  const named = parsed.data.ticketIds;
  const ticketIds = [...new Set(named)];
  // Where a ticket id stands in the body, for the error's details.
  const at = (id: string) => `ticketIds[${named.indexOf(id)}]`;
  await transaction(async (work) => {
    const { tx } = work;
    const sale = await saleOf(caller, saleId, tx, true);
    if (alreadyFulfilledWith(sale, ticketIds, named)) return;
    const [listing] = await tx.select().from(channelListings).where(eq(channelListings.id, sale.channelListingId));
    const tickets = await lockedTickets(tx, caller.partnerId, ticketIds, at);
    const problems = await unfitTickets(tx, caller.partnerId, listing, tickets, at);
    if (problems.length)
      throw new AppError(
        'CONFLICT',
        `These tickets cannot fulfil the sale: ${problems.map((p) => p.message).join('; ')}`,
        {
          details: problems,
        },
      );
    await claimTickets(tx, caller.partnerId, sale, tickets, at);
    await deliverChannelSale(work, sale, tickets);
    await tx
      .update(channelSales)
      .set({ status: 'FULFILLED', ticketIds, fulfilledAt: sql`now()` })
      .where(eq(channelSales.id, sale.id));
  }, db as Db);
  return getChannelSale(caller, saleId, db);
}

type SaleTicket = Awaited<ReturnType<typeof ticketsForSale>>[number];
type TicketPath = (ticketId: string) => string;

/**
 * Naming the tickets of a fulfilled sale again answers it (true); anything else a sale's state or the
 * count of tickets refuses is a 409 or a 400. False: the fulfilment goes on.
 */
function alreadyFulfilledWith(sale: SaleRow, ticketIds: string[], named: string[]): boolean {
  if (sale.status === 'FULFILLED') {
    const same = [...(sale.ticketIds ?? [])].sort().join('\n') === [...ticketIds].sort().join('\n');
    if (same) return true;
    throw conflict('This sale was already fulfilled with other tickets');
  }
  if (sale.status === 'REFUNDED')
    throw conflict('This sale was not fulfilled in time: the buyer was refunded and the sale is closed');
  if (ticketIds.length !== named.length)
    throw badRequest('ticketIds names a ticket twice', [{ path: 'ticketIds', message: 'has duplicates' }]);
  if (ticketIds.length !== sale.quantity)
    throw badRequest(`This sale is of ${sale.quantity} ticket(s); ${ticketIds.length} were named`, [
      { path: 'ticketIds', message: `must name exactly ${sale.quantity} ticket(s)` },
    ]);
  return false;
}

/**
 * The named tickets, a 404 for any the partner does not have. The tickets' row locks first, then every
 * check on them read again: a fan's listing (created or relisted under the same locks), a P2P transfer or
 * an admission committing at this moment is either seen here or waits for this fulfilment to commit.
 */
async function lockedTickets(tx: Tx, partnerId: string, ticketIds: string[], at: TicketPath) {
  const found = await ticketsForSale(partnerId, ticketIds, tx);
  const missing = ticketIds.filter((id) => !found.some((t) => t.ticketId === id));
  if (missing.length)
    throw new AppError('NOT_FOUND', `Ticket not found: ${missing.join(', ')}`, {
      details: missing.map((id) => ({ path: at(id), message: `${id} is not a ticket of the partner` })),
    });
  await lockTickets(
    tx,
    found.map((t) => t.pk),
  );
  return ticketsForSale(partnerId, ticketIds, tx);
}

/** Why each ticket cannot fulfil a sale of this listing (none: they all can). */
async function unfitTickets(
  tx: Tx,
  partnerId: string,
  listing: typeof channelListings.$inferSelect,
  tickets: SaleTicket[],
  at: TicketPath,
) {
  const problems: { path: string; message: string }[] = [];
  const named = (listing.seats ?? []).map((s: ChannelSeat) => s.ticketId).filter((id): id is string => !!id);
  const { reissue } = await protectionOf(partnerId, tx);
  for (const t of tickets) {
    const why =
      t.showPk !== listing.showPk
        ? 'is not of the listing’s show'
        : t.ticketOptionId !== listing.ticketOptionId
          ? 'is not of the listing’s ticket option'
          : listing.priceTypeId && t.priceTypeId !== listing.priceTypeId
            ? 'is not of the listing’s price type'
            : t.status !== 'VALID'
              ? 'is not valid'
              : t.admittedAt
                ? 'was already used to enter'
                : t.codeShownAt && !reissue
                  ? 'has a code already shown to its holder, and the partner does not issue a new code after a resale'
                  : named.length && !named.includes(t.ticketId)
                    ? 'is not one of the tickets the listing named'
                    : null;
    if (why) problems.push({ path: at(t.ticketId), message: `${t.ticketId} ${why}` });
  }
  const listed = new Set(
    await ticketsInOpenListings(
      tx,
      tickets.map((t) => t.pk),
    ),
  );
  for (const t of tickets)
    if (listed.has(t.pk)) problems.push({ path: at(t.ticketId), message: `${t.ticketId} is on sale in the market` });
  return problems;
}

/**
 * The guard: a ticket is handed over by one channel sale only (channel_sale_tickets is keyed by the
 * ticket). A fulfilment racing another for the same ticket waits here for the other's commit, then finds
 * the ticket taken: a 409 naming it, before anything changed hands. Claimed in one order, so two
 * fulfilments of several tickets never wait on each other crosswise.
 */
async function claimTickets(tx: Tx, partnerId: string, sale: SaleRow, tickets: SaleTicket[], at: TicketPath) {
  const claimed = await tx
    .insert(channelSaleTickets)
    .values(
      [...tickets]
        .sort((a, b) => (a.pk < b.pk ? -1 : a.pk > b.pk ? 1 : 0))
        .map((t) => ({ ticketPk: t.pk, saleId: sale.id, partnerId })),
    )
    .onConflictDoNothing()
    .returning({ ticketPk: channelSaleTickets.ticketPk });
  if (claimed.length !== tickets.length) {
    const got = new Set(claimed.map((c) => c.ticketPk));
    const taken = tickets
      .filter((t) => !got.has(t.pk))
      .map((t) => ({
        path: at(t.ticketId),
        message: `${t.ticketId} was already handed over by another channel sale`,
      }));
    throw new AppError('CONFLICT', `These tickets cannot fulfil the sale: ${taken.map((p) => p.message).join('; ')}`, {
      details: taken,
    });
  }
}

/**
 * Refunds the sales whose deadline passed unfulfilled (one, or every due one): each becomes REFUNDED, its
 * market listing CANCELLED with the channel's payout, the buyer is refunded what they paid for it and
 * told why, and the channel gets `channelSale.refunded`. One transaction per sale, its row locked, so a
 * fulfilment arriving at the same moment either wins or sees the refund.
 */
export async function refundUnfulfilledSales(scope: { saleId?: string } = {}, db: Db): Promise<number> {
  const due = await db
    .select({ id: channelSales.id })
    .from(channelSales)
    .where(
      and(
        eq(channelSales.status, 'PENDING_FULFILMENT'),
        lte(channelSales.fulfilBy, sql`now()`),
        scope.saleId ? eq(channelSales.id, scope.saleId) : undefined,
      ),
    )
    .limit(500);
  let refunded = 0;
  for (const { id } of due) {
    const done = await transaction(async (work) => {
      const [sale] = await work.tx
        .update(channelSales)
        .set({ status: 'REFUNDED', refundedAt: sql`now()` })
        .where(
          and(
            eq(channelSales.id, id),
            eq(channelSales.status, 'PENDING_FULFILMENT'),
            lte(channelSales.fulfilBy, sql`now()`),
          ),
        )
        .returning();
      if (!sale) return false;
      await refundChannelSale(work, sale);
      await enqueueChannelWebhook(work, sale.partnerId, sale.channelId, {
        family: 'channelSale',
        action: 'channelSale.refunded',
        data: {
          ...(await viewOf(sale, work.tx)),
          reason: 'The tickets were not handed over before the deadline; the buyer was refunded',
        },
      });
      return true;
    }, db);
    if (done) refunded += 1;
  }
  return refunded;
}

/** Staff: one channel's sales, newest first (the dashboard's table). */
export async function staffChannelSales(partnerId: string, channelId: string, query: unknown, db: DbOrTx) {
  return listChannelSales({ partnerId, channelId }, query, db);
}

/**
 * Staff: the channel's payout setup. Its payouts are paid like a fan seller's, to the payout account of
 * its seller identity (marketplace channelSeller); `setUp` creates that account if needed and answers
 * the provider's onboarding link for the channel to complete (none once it is active).
 */
export async function channelPayoutSetup(
  partnerId: string,
  channelId: string,
  // The handle, not a transaction: setting up asks the provider between statements that commit on their own.
  db: Db,
  setUp = false,
) {
  const identity = channelSeller(channelId);
  if (setUp) {
    const { account, onboardingUrl } = await setUpPayoutAccount(
      partnerId,
      {
        sellerEmail: identity,
        returnUrl: `${publicBaseUrl()}/dashboard/partners/${partnerId}/channels/${channelId}`,
      },
      db,
    );
    return { status: account.status, onboardingUrl };
  }
  return { status: await payoutStatus(partnerId, identity, db), onboardingUrl: null };
}

/**
 * Shows cancelled (subscribed in server/wiring.ts after the marketplace, which refunds every paid purchase
 * of those shows in full): the channels' sales of them close as REFUNDED, so no deadline refunds them
 * again and no fulfilment is awaited, and each channel receives `channelSale.refunded` saying why.
 */
export async function closeSalesOfShows(work: Work, showPks: string[]): Promise<void> {
  if (!showPks.length) return;
  const closed = await work.tx
    .update(channelSales)
    .set({ status: 'REFUNDED', refundedAt: sql`now()` })
    .where(
      and(
        inArray(channelSales.status, ['PENDING_FULFILMENT', 'FULFILLED']),
        inArray(
          channelSales.channelListingId,
          work.tx
            .select({ id: channelListings.id })
            .from(channelListings)
            .where(inArray(channelListings.showPk, showPks)),
        ),
      ),
    )
    .returning();
  for (const sale of closed) {
    await enqueueChannelWebhook(work, sale.partnerId, sale.channelId, {
      family: 'channelSale',
      action: 'channelSale.refunded',
      data: { ...(await viewOf(sale, work.tx)), reason: 'The show was cancelled; the buyer was refunded' },
    });
  }
}
