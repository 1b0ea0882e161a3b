import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { buyIntentions, listings, payouts } from '@/db/schema/marketplace';
import { env, publicBaseUrl } from '@/server/env';
import { type BuyerPromiseFacts, payoutDueAt } from '@/server/lib/promises';
import { showConfigurations, showDirectory } from '@/server/modules/catalog';
import { getIntegration, getPartner } from '@/server/modules/partners';
import { protectionOf, unlockState } from '@/server/modules/protection';
import { marketTerms } from './fees';

/*
 * The facts every promise to a fan is worded from (server/lib/promises.ts words them): the partner's
 * protection settings, integration and support contact, the show's unlock time, the market's payout
 * delay. Read when the page or mail is made, so what a fan reads follows the settings as they are.
 */

/** Encore's terms page, absolute (mails) — pages link the same path. */
function termsUrl(partnerId?: string): string {
  return `${publicBaseUrl()}/terms${partnerId ? `?partner=${encodeURIComponent(partnerId)}` : ''}`;
}

/** The partner's support contact as staff set it, with Encore's address for when it is unset. */
export async function supportFacts(partnerId: string, db: DbOrTx) {
  const partner = await getPartner(partnerId, db);
  return {
    partnerName: partner.name,
    support: { url: partner.supportUrl ?? null, email: partner.supportEmail ?? null },
    encoreSupportEmail: env().SUPPORT_EMAIL,
  };
}

async function showFacts(showPk: string, db: DbOrTx) {
  const d = showDirectory(db);
  const [row] = await db
    .select({ partnerId: d.partnerId, eventPk: d.eventPk, startsAt: d.startsAt, timeZone: d.timeZone })
    .from(d)
    .where(eq(d.showPk, showPk));
  return row ?? null;
}

/**
 * What a buyer of a ticket of this show is promised: reissue or transfer (the partner's setting), when
 * the code shows (the show's unlock time; none held back when protection is off), how ownership is
 * checked (live with the partner, or its records), and whom to ask. Null for an unknown show.
 */
export async function buyerPromiseFacts(
  showPk: string,
  db: DbOrTx,
  sources?: BuyerPromiseFacts['sources'],
): Promise<BuyerPromiseFacts | null> {
  const show = await showFacts(showPk, db);
  if (!show) return null;
  const [protection, configurations, integration, support] = await Promise.all([
    protectionOf(show.partnerId, db),
    showConfigurations(showPk, db),
    getIntegration(show.partnerId, db),
    supportFacts(show.partnerId, db),
  ]);
  const { unlocksAt } = unlockState(show.startsAt, configurations?.show, configurations?.event, new Date(), {
    overrideHours: protection.unlockOverride(show.eventPk, showPk),
    defaultHours: protection.defaultUnlockHours,
  });
  return {
    ...support,
    reissue: protection.reissue,
    codeFrom: protection.active(show.eventPk, showPk) ? unlocksAt : null,
    timeZone: show.timeZone,
    verifiedLive: Boolean(integration.verificationUrl),
    termsUrl: termsUrl(show.partnerId),
    ...(sources ? { sources } : {}),
  };
}

/** Where a purchase's listings come from: fans and/or partner resale platforms (channels). */
export function sourcesOf(list: { fromChannel: boolean }[]): NonNullable<BuyerPromiseFacts['sources']> {
  return { fans: list.some((l) => !l.fromChannel), channels: list.some((l) => l.fromChannel) };
}

/** The buyer's promises for a buy intention (the payment page knows only the intention). */
export async function intentionPromiseFacts(intentionId: string, db: DbOrTx) {
  const [row] = await db
    .select({ listingIds: buyIntentions.listingIds })
    .from(buyIntentions)
    .where(eq(buyIntentions.id, intentionId));
  if (!row?.listingIds.length) return null;
  const held = await db
    .select({ showPk: listings.showPk, channelListingId: listings.channelListingId })
    .from(listings)
    .where(inArray(listings.id, row.listingIds));
  if (!held.length) return null;
  const sources = sourcesOf(held.map((l) => ({ fromChannel: l.channelListingId !== null })));
  return buyerPromiseFacts(held[0].showPk, db, sources);
}

/**
 * When a seller of a ticket of this show is paid: the sale's payout date (its `dueAt`) once sold,
 * before a sale the date it would get (show start plus the partner's payout delay).
 */
export async function sellerPayoutFacts(partnerId: string, showPk: string, listingId: string | null, db: DbOrTx) {
  const [show, terms, payout] = await Promise.all([
    showFacts(showPk, db),
    marketTerms(partnerId, db),
    listingId
      ? db
          .select({ dueAt: payouts.dueAt, status: payouts.status, paidAt: payouts.paidAt })
          .from(payouts)
          .where(and(eq(payouts.listingId, listingId), eq(payouts.partnerId, partnerId)))
          .then((r) => r[0] ?? null)
      : null,
  ]);
  if (!show || show.partnerId !== partnerId) return null;
  return {
    dueAt: payout?.dueAt ?? payoutDueAt(show.startsAt, terms.payoutDelayDays),
    delayDays: terms.payoutDelayDays,
    timeZone: show.timeZone,
    /** The sale's payout as recorded (null before a sale). */
    status: payout?.status ?? null,
    paidAt: payout?.paidAt ?? null,
  };
}
