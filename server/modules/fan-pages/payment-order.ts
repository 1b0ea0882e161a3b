import type { Db } from '@/db';
import type { BuyerListing, SeatView } from './buyer-listings';
import { buyerIntention } from './buyer-pages';

/*
 * What a buyer pays for, as the payment page and the provider's checkout show it: the event, the show's
 * date and venue, each listing's option and price-type titles, seats, price and service fee per ticket
 * (buyerFeeMinor, the same computation as the checkout and the intention's amount), the totals and the
 * hold. No partner fee reaches the buyer in Encore: the partner's share of a resale (primarySalesFee) is
 * taken from the seller's payout, so the buyer's split is the resale price and Encore's service fee.
 */

/** One listing of an order: what the fan reads on a line of the payment page. */
export interface OrderLine {
  optionTitle: string;
  priceTypeTitle: string | null;
  seats: SeatView[];
  ticketCount: number;
  /** Resale price per ticket (minor units). */
  priceMinor: number;
  /** Service fee per ticket (minor units). */
  feeMinor: number;
}

export interface PaymentOrder {
  eventTitle: string;
  showTitle: string | null;
  startsAt: Date | null;
  /** The venue's IANA time zone: the show's date is shown as it is there. */
  timeZone: string | null;
  venue: string | null;
  lines: OrderLine[];
  currency: string;
  ticketCount: number;
  subtotalMinor: number;
  feesMinor: number;
  totalMinor: number;
  status: string;
  /** When the hold ends: the tickets go back on sale then. */
  expiresAt: string;
  /** The show's market, where the fan goes when the hold ended. */
  marketPath: string;
}

type Show = NonNullable<Awaited<ReturnType<typeof buyerIntention>>>['show'];

function lineOf(l: BuyerListing): OrderLine {
  return {
    optionTitle: l.optionTitle,
    priceTypeTitle: l.priceTypeTitle,
    seats: l.seats,
    ticketCount: l.ticketCount,
    priceMinor: l.priceMinor,
    feeMinor: l.feeMinor,
  };
}

function venueText(show: Show): string | null {
  if (!show) return null;
  return [show.venue.name, show.venue.address].filter(Boolean).join(' · ') || null;
}

/**
 * The order behind a buy intention's payment (the payment's `reference`), for the payment page; null for
 * an unknown intention. Read through buyerIntention: the checkout's own statements and fee computation.
 */
export async function paymentOrder(intentionId: string, db: Db): Promise<PaymentOrder | null> {
  const found = await buyerIntention(intentionId, db);
  if (!found) return null;
  const { intention, event, show } = found;
  const lines = found.listings.map(lineOf);
  const sum = (f: (l: OrderLine) => number) => lines.reduce((n, l) => n + f(l), 0);
  const subtotalMinor = sum((l) => l.priceMinor * l.ticketCount);
  const feesMinor = sum((l) => l.feeMinor * l.ticketCount);
  return {
    eventTitle: event.title,
    showTitle: show?.title ?? null,
    startsAt: show?.startsAt ?? null,
    timeZone: show?.venue.timeZone ?? null,
    venue: venueText(show),
    lines,
    currency: intention.currency,
    ticketCount: sum((l) => l.ticketCount),
    subtotalMinor,
    feesMinor,
    totalMinor: subtotalMinor + feesMinor,
    status: intention.status,
    expiresAt: intention.expiresAt,
    marketPath: `/market/${event.eventPk}${show ? `?show=${show.showPk}` : ''}`,
  };
}
