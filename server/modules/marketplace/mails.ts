import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db';
import { buyIntentions, listings } from '@/db/schema/marketplace';
import { publicBaseUrl } from '@/server/env';
import { defaultLocale, formatMoney, formatShowDate, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import type { BuyerPromiseFacts } from '@/server/lib/promises';
import type { Work } from '@/server/lib/transaction';
import { showDirectory } from '@/server/modules/catalog';
import { lastFanLocale } from '@/server/modules/fans';
import { queueMail } from '@/server/modules/mail';
import { claimWishlistNotifications } from '@/server/modules/market-data';
import { getPartner } from '@/server/modules/partners';
import { isChannelSeller } from './channel-seller';
import { buyerFeeMinor, marketTerms, sellerPayoutMinor } from './fees';
import { buyerPromiseFacts, sellerPayoutFacts } from './promises';

/*
 * The marketplace's mails to fans, queued in the transaction that causes them (server/modules/mail).
 * Language: the one recorded for the fan the mail goes to — the seller's listing, the buyer's buy
 * intention, the lead — made on a fan page in that language; for a row the partner API made (no
 * language), the fan's latest session with the partner; else DEFAULT_LANG.
 */

/** The language of a mail to `email`: the row's recorded one, else their latest session's, else DEFAULT_LANG. */
async function mailLocale(db: DbOrTx, partnerId: string, email: string, recorded: Locale | null): Promise<Locale> {
  return recorded ?? (await lastFanLocale(partnerId, email, db)) ?? defaultLocale();
}

/** The buyer's language recorded with a buy intention (null: none, or no such intention). */
async function intentionLocale(tx: Tx, intentionId: string | null): Promise<Locale | null> {
  if (!intentionId) return null;
  const [row] = await tx
    .select({ locale: buyIntentions.locale })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  return row?.locale ?? null;
}

const money = (minor: number, currency: string, locale: Locale) =>
  formatMoney(fromMinorUnits(minor, currency), currency, locale);

/** Each listing with its seller, price, partner name, event title and show time (venue zone). */
async function listingFacts(tx: Tx, listingIds: string[]) {
  if (!listingIds.length) return [];
  const show = showDirectory(tx);
  const rows = await tx
    .select({
      id: listings.id,
      partnerId: listings.partnerId,
      sellerEmail: listings.sellerEmail,
      priceMinor: listings.priceMinor,
      currency: listings.currency,
      ticketCount: listings.ticketCount,
      reservedBy: listings.reservedBy,
      locale: listings.locale,
      eventTitle: show.eventTitle,
      startsAt: show.startsAt,
      timeZone: show.timeZone,
      eventRef: show.eventRef,
      showId: show.showId,
      eventPk: show.eventPk,
      showPk: show.showPk,
    })
    .from(listings)
    .innerJoin(show, eq(show.showPk, listings.showPk))
    .where(inArray(listings.id, listingIds))
    .orderBy(listings.id);
  const names = new Map<string, string>();
  for (const r of rows) if (!names.has(r.partnerId)) names.set(r.partnerId, (await getPartner(r.partnerId, tx)).name);
  return rows.map((r) => ({ ...r, partnerName: names.get(r.partnerId) ?? '' }));
}

/** To the seller: the listing is on sale, at what price, and what they will receive. */
export async function mailListingCreated(work: Work, listingId: string) {
  const [l] = await listingFacts(work.tx, [listingId]);
  if (!l) return;
  const locale = await mailLocale(work.tx, l.partnerId, l.sellerEmail, l.locale);
  const terms = await marketTerms(l.partnerId, work.tx);
  await queueMail(work, {
    partnerId: l.partnerId,
    to: l.sellerEmail,
    kind: 'listingCreated',
    locale,
    data: {
      partnerName: l.partnerName,
      eventTitle: l.eventTitle,
      showDate: formatShowDate(l.startsAt, locale, l.timeZone),
      price: money(l.priceMinor, l.currency, locale),
      payout: money(sellerPayoutMinor(terms, l.priceMinor, l.currency) * l.ticketCount, l.currency, locale),
      listingUrl: `${publicBaseUrl()}/listing/${l.id}`,
      payoutDue: await payoutDueOf(work, l.partnerId, l.showPk, null),
    },
  });
}

/** The seller's payout date as the mail states it: the sale's payout once sold, else the date it would get. */
async function payoutDueOf(work: Work, partnerId: string, showPk: string, listingId: string | null) {
  const due = await sellerPayoutFacts(partnerId, showPk, listingId, work.tx);
  if (!due) throw new Error(`show ${showPk} of partner ${partnerId} is missing`);
  return { dueAt: due.dueAt, delayDays: due.delayDays, timeZone: due.timeZone };
}

/** The buyer's promises for the show of a purchase (a ticket's show always exists). */
async function promisesOf(
  work: Work,
  showPk: string,
  sources?: BuyerPromiseFacts['sources'],
): Promise<BuyerPromiseFacts> {
  const facts = await buyerPromiseFacts(showPk, work.tx, sources);
  if (!facts) throw new Error(`show ${showPk} is missing`);
  return facts;
}

/**
 * A completed purchase: each seller hears of the sale and its payout, the buyer gets the confirmation
 * with the secure-view link of every ticket bought (the fresh links of the sale).
 */
export async function mailPurchaseCompleted(
  work: Work,
  intention: {
    partnerId: string;
    buyerEmail: string;
    totalMinor: number;
    currency: string;
    listingIds: string[];
    locale: Locale | null;
  },
  sold: { listingId: string; payoutMinor: number; dueAt: Date }[],
  secureViewUrls: string[],
  /** Tickets bought from channels: their links come once the channel hands them over. */
  awaitingDelivery = 0,
) {
  const facts = await listingFacts(work.tx, intention.listingIds);
  for (const s of sold) {
    const l = facts.find((f) => f.id === s.listingId);
    if (!l) continue;
    const locale = await mailLocale(work.tx, l.partnerId, l.sellerEmail, l.locale);
    await queueMail(work, {
      partnerId: l.partnerId,
      to: l.sellerEmail,
      kind: 'ticketSold',
      locale,
      data: {
        partnerName: l.partnerName,
        eventTitle: l.eventTitle,
        showDate: formatShowDate(l.startsAt, locale, l.timeZone),
        payout: money(s.payoutMinor, l.currency, locale),
        payoutDue: await payoutDueOf(work, l.partnerId, l.showPk, l.id),
      },
    });
  }
  const first = facts[0];
  if (!first) return;
  const locale = await mailLocale(work.tx, intention.partnerId, intention.buyerEmail, intention.locale);
  await queueMail(work, {
    partnerId: intention.partnerId,
    to: intention.buyerEmail,
    kind: 'purchaseConfirmation',
    locale,
    data: {
      partnerName: first.partnerName,
      eventTitle: first.eventTitle,
      showDate: formatShowDate(first.startsAt, locale, first.timeZone),
      total: money(intention.totalMinor, intention.currency, locale),
      secureViewUrls,
      ...(awaitingDelivery ? { awaitingDelivery } : {}),
      promises: await promisesOf(work, first.showPk, { fans: sold.length > 0, channels: awaitingDelivery > 0 }),
    },
  });
}

/** To the buyer of a channel's tickets, once the channel handed them over: their secure-view links. */
export async function mailTicketsDelivered(
  work: Work,
  listingId: string,
  buyerEmail: string,
  secureViewUrls: string[],
) {
  const [l] = await listingFacts(work.tx, [listingId]);
  if (!l) return;
  // A sold listing's `reservedBy` is the buy intention that bought it.
  const locale = await mailLocale(work.tx, l.partnerId, buyerEmail, await intentionLocale(work.tx, l.reservedBy));
  await queueMail(work, {
    partnerId: l.partnerId,
    to: buyerEmail,
    kind: 'ticketsDelivered',
    locale,
    data: {
      partnerName: l.partnerName,
      eventTitle: l.eventTitle,
      showDate: formatShowDate(l.startsAt, locale, l.timeZone),
      secureViewUrls,
      promises: await promisesOf(work, l.showPk),
    },
  });
}

/**
 * To each seller whose listing a cascade ended. Given a bare transaction (ticket invalidation has no
 * after-commit list), the mail module's minute sweep sends them.
 */
export async function mailListingsCancelled(
  within: Work | Tx,
  listingIds: string[],
  reason: 'showCancelled' | 'ticketInvalidated' | 'ownershipLost' | 'protectionOff',
) {
  const tx = 'after' in within ? within.tx : within;
  for (const l of await listingFacts(tx, listingIds)) {
    if (isChannelSeller(l.sellerEmail)) continue;
    const locale = await mailLocale(tx, l.partnerId, l.sellerEmail, l.locale);
    await queueMail(within, {
      partnerId: l.partnerId,
      to: l.sellerEmail,
      kind: 'listingCancelled',
      locale,
      data: { partnerName: l.partnerName, eventTitle: l.eventTitle, reason },
    });
  }
}

/** To the buyer of a paid purchase that is refunded (whole amount unless `amountMinor` says otherwise). */
export async function mailPurchaseRefunded(
  work: Work,
  intentionId: string,
  reason: 'showCancelled' | 'notAvailable' | 'notDelivered' | 'staff',
  amountMinor?: number,
) {
  const [intention] = await work.tx.select().from(buyIntentions).where(eq(buyIntentions.id, intentionId));
  if (!intention) return;
  const [l] = await listingFacts(work.tx, intention.listingIds.slice(0, 1));
  if (!l) return;
  const locale = await mailLocale(work.tx, intention.partnerId, intention.buyerEmail, intention.locale);
  await queueMail(work, {
    partnerId: intention.partnerId,
    to: intention.buyerEmail,
    kind: 'purchaseRefunded',
    locale,
    data: {
      partnerName: l.partnerName,
      eventTitle: l.eventTitle,
      amount: money(amountMinor ?? intention.totalMinor, intention.currency, locale),
      reason,
    },
  });
}

/**
 * To each seller whose scheduled payout a refund cancelled (show cancelled, staff refund): the amount
 * that will not be paid, and why. Called with the payouts the cancelling UPDATE returned, so a payout
 * is mailed about once. A channel's marker address is never mailed.
 */
export async function mailPayoutsCancelled(
  work: Work,
  cancelled: { listingId: string; sellerEmail: string; amountMinor: number; currency: string }[],
  reason: 'showCancelled' | 'staff',
) {
  const facts = await listingFacts(
    work.tx,
    cancelled.map((p) => p.listingId),
  );
  for (const p of cancelled) {
    const l = facts.find((f) => f.id === p.listingId);
    if (!l || isChannelSeller(p.sellerEmail)) continue;
    const locale = await mailLocale(work.tx, l.partnerId, p.sellerEmail, l.locale);
    await queueMail(work, {
      partnerId: l.partnerId,
      to: p.sellerEmail,
      kind: 'payoutCancelled',
      locale,
      data: {
        partnerName: l.partnerName,
        eventTitle: l.eventTitle,
        showDate: formatShowDate(l.startsAt, locale, l.timeZone),
        amount: money(p.amountMinor, p.currency, locale),
        reason,
      },
    });
  }
}

/**
 * To the fans on the show's wishlist (WISHLIST leads with an e-mail, still subscribed): a listing is on
 * sale. Once per lead and listing; each mail carries its own unsubscribe link.
 */
export async function mailWishlist(work: Work, listingId: string) {
  const [l] = await listingFacts(work.tx, [listingId]);
  if (!l) return;
  const told = await claimWishlistNotifications(work.tx, {
    partnerId: l.partnerId,
    eventRef: l.eventRef,
    showId: l.showId,
    listingId,
  });
  if (!told.length) return;
  const terms = await marketTerms(l.partnerId, work.tx);
  const total = l.priceMinor + buyerFeeMinor(terms, l.priceMinor, l.currency);
  for (const fan of told) {
    const locale = await mailLocale(work.tx, l.partnerId, fan.email, fan.locale);
    await queueMail(work, {
      partnerId: l.partnerId,
      to: fan.email,
      kind: 'wishlistAvailable',
      locale,
      data: {
        partnerName: l.partnerName,
        eventTitle: l.eventTitle,
        showDate: formatShowDate(l.startsAt, locale, l.timeZone),
        price: money(total, l.currency, locale),
        buyUrl: `${publicBaseUrl()}/market/${l.eventPk}?show=${l.showPk}`,
        unsubscribeUrl: `${publicBaseUrl()}/unsubscribe/${fan.notificationId}`,
      },
    });
  }
}
