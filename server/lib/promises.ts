import { formatDay, formatShowDate, type Locale, translator } from '@/server/lib/i18n';

/*
 * What Encore promises a fan, worded from facts (the partner's settings and the show), never fixed copy:
 * the buy pages, the guarantee block and the mails all say it through these functions, so a page and a
 * mail cannot disagree and a setting changed by staff changes every sentence that depends on it.
 * The facts are gathered by the marketplace (server/modules/marketplace/promises.ts).
 */

/** The facts a buyer's promises are computed from. */
export interface BuyerPromiseFacts {
  partnerName: string;
  /** The partner issues a new code to the buyer after a resale (protection settings' `reissue`). */
  reissue: boolean;
  /**
   * When the buyer's code shows on their ticket page: the show's unlock time (staff override, else the
   * show's ticketDelivery, else the partner's default hours). Null: not held back (protection off).
   */
  codeFrom: Date | null;
  /** The venue's time zone, for the unlock time. */
  timeZone: string | null;
  /** The partner answers a live ownership check (a verification URL); else its pushed tickets are the record. */
  verifiedLive: boolean;
  /** The partner's support contact as staff set it; both null: Encore's own (`encoreSupportEmail`). */
  support: { url: string | null; email: string | null };
  encoreSupportEmail: string;
  /** Absolute URL of Encore's terms page. */
  termsUrl: string;
  /**
   * Where the purchase's tickets come from: fans' listings (ownership asked again when the payment
   * arrives) and/or a partner resale platform's (handed over after payment, refunded if not in time).
   * Unset: fans' listings only.
   */
  sources?: { fans: boolean; channels: boolean };
}

/** How the ticket reaches the buyer and when its code shows: reissue or transfer, unlock time. */
export function deliveryText(locale: Locale, facts: BuyerPromiseFacts, now = new Date()): string {
  const t = translator(locale, 'promise');
  const partner = facts.partnerName;
  const later = facts.codeFrom !== null && facts.codeFrom.getTime() > now.getTime();
  const date = later ? formatShowDate(facts.codeFrom as Date, locale, facts.timeZone) : '';
  if (facts.reissue) return later ? t('reissueLater', { partner, date }) : t('reissueNow', { partner });
  return later ? t('transferLater', { date }) : t('transferNow');
}

/** The buyer's help contact: the partner's (web and/or e-mail) when staff set one, else Encore's e-mail. */
export interface SupportContact {
  /** Who answers: the partner, or Encore. */
  by: 'partner' | 'encore';
  url: string | null;
  email: string | null;
}

export function supportContact(facts: Pick<BuyerPromiseFacts, 'support' | 'encoreSupportEmail'>): SupportContact {
  const { url, email } = facts.support;
  if (url || email) return { by: 'partner', url, email };
  return { by: 'encore', url: null, email: facts.encoreSupportEmail };
}

/** The guarantee block, worded: only what the code does, for this partner and show. */
export interface GuaranteeTexts {
  title: string;
  /** One sentence per guarantee, in order. */
  items: string[];
  delivery: string;
  terms: { label: string; url: string };
  support: { lead: string; url: { label: string; href: string } | null; email: { label: string; href: string } | null };
}

export function guaranteeTexts(locale: Locale, facts: BuyerPromiseFacts, now = new Date()): GuaranteeTexts {
  const t = translator(locale, 'promise');
  const partner = facts.partnerName;
  const sources = facts.sources ?? { fans: true, channels: false };
  // Show cancellation refunds every completed purchase of the show, whole payment, by a job (no request).
  const items = [t('refund')];
  // completePurchase asks ownership again when the payment arrives and refunds in full if it fails; it
  // skips a channel's listing, whose tickets come at fulfilment (refunded by the deadline sweep if not).
  if (sources.fans) items.push(facts.verifiedLive ? t('checkedLive', { partner }) : t('checkedRecords', { partner }));
  if (sources.channels) items.push(t('channelHandOver'));
  if (facts.reissue) items.push(t('newCode', { partner }));
  const contact = supportContact(facts);
  const name = contact.by === 'partner' ? partner : 'Encore';
  return {
    title: t('title'),
    items,
    delivery: deliveryText(locale, facts, now),
    terms: { label: t('terms'), url: facts.termsUrl },
    support: {
      lead: t('supportLead', { name }),
      url: contact.url ? { label: t('supportWeb', { name }), href: contact.url } : null,
      email: contact.email ? { label: contact.email, href: `mailto:${contact.email}` } : null,
    },
  };
}

/** A seller's payout date: the sale's `dueAt` (or, before a sale, the date it would get) and its delay. */
export interface PayoutDue {
  dueAt: Date;
  delayDays: number;
  timeZone: string | null;
}

/**
 * "We pay you on Mar 12, 2027, 2 days after the show." (`sold`), or before a sale "If they sell, we pay
 * you on …" (`ifSold`).
 */
export function payoutDateText(locale: Locale, payout: PayoutDue, when: 'sold' | 'ifSold' = 'sold'): string {
  const t = translator(locale, 'promise');
  const values = { day: formatDay(payout.dueAt, locale, payout.timeZone), days: payout.delayDays };
  return when === 'sold' ? t('payoutOn', values) : t('payoutIfSold', values);
}

const DAY_MS = 24 * 3600_000;

/** When a sale's payout is due: the show's start plus the partner's payout delay (as purchase completion sets it). */
export function payoutDueAt(showStartsAt: Date, payoutDelayDays: number): Date {
  return new Date(showStartsAt.getTime() + payoutDelayDays * DAY_MS);
}
