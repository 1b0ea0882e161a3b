import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { listingItems, listings } from '@/db/schema/marketplace';
import { type Locale, translator } from '@/server/lib/i18n';
import { eventPageInfo, showDirectory } from '@/server/modules/catalog';
import type { PaymentLine } from '@/server/modules/payments';
import { buyerFeeMinor, type MarketTerms } from './fees';

/** A ticket's place at the venue, as its seating props give it. */
export interface Seat {
  section?: string;
  row?: string;
  seat?: string;
}

type SeatT = (key: 'section' | 'row' | 'seat' | 'seats' | 'noSeat', values?: { value: string }) => string;

/**
 * "Section A · Row 3 · Seats 7, 8" for a listing's tickets (one section and row when they share them). With
 * `labelOf`, a section the seat map names reads by that name alone ("Grada Fondo · Row 3"), as on the map.
 */
export function seatText(seats: Seat[], t: SeatT, labelOf?: (section: string) => string | null): string {
  const known = seats.filter((s) => s.section || s.row || s.seat);
  if (!known.length) return t('noSeat');
  const one = (k: keyof Seat) => {
    const values = [...new Set(known.map((s) => s[k]).filter((v): v is string => !!v))];
    return values.length ? values.join(', ') : null;
  };
  const [section, row, seat] = [one('section'), one('row'), one('seat')];
  const parts: string[] = [];
  if (section) {
    const labels = labelOf && [...new Set(known.map((s) => s.section).filter((v): v is string => !!v))].map(labelOf);
    parts.push(labels?.every((l) => l !== null) ? labels.join(', ') : t('section', { value: section }));
  }
  if (row) parts.push(t('row', { value: row }));
  if (seat) parts.push(known.length > 1 ? t('seats', { value: seat }) : t('seat', { value: seat }));
  return parts.join(' · ');
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

/** The price type and seats of each listing, and the event of their show (three statements). */
async function listingFacts(showPk: string, ids: string[], db: DbOrTx) {
  const dir = showDirectory(db);
  const [rows, [show]] = await Promise.all([
    db.execute<{ id: string; price_type_id: string | null; seats: { seating: Record<string, unknown> | null }[] }>(sql`
      select l.id, l.price_type_id, coalesce((
        select json_agg(json_build_object('seating', i.seating) order by i.ticket_id)
        from ${listingItems} i where i.listing_id = l.id), l.channel_seats::json, '[]'::json) as seats
      from ${listings} l where l.id = any(array(select json_array_elements_text(${JSON.stringify(ids)}::json)))`),
    db.select({ eventPk: dir.eventPk }).from(dir).where(eq(dir.showPk, showPk)),
  ]);
  const event = show ? await eventPageInfo(show.eventPk, db) : null;
  return { rows: new Map(rows.map((r) => [r.id, r])), event, show: event?.shows.find((s) => s.showPk === showPk) };
}

/**
 * The checkout lines of listings being held, in the fan's language: per listing its tickets ("Event ·
 * Option (price type) · seats" at the resale price) and its service fee (buyerFeeMinor on the same claimed
 * prices and terms as the intention's amount), so the lines add up to the amount charged. Read inside the
 * intention's transaction, only when the provider hosts the checkout (Stripe).
 */
export async function checkoutLines(
  claimed: {
    id: string;
    show_pk: string;
    ticket_option_id: string;
    currency: string;
    price_minor: number;
    ticket_count: number;
  }[],
  terms: MarketTerms,
  locale: Locale,
  db: DbOrTx,
): Promise<PaymentLine[]> {
  if (!claimed.length) return [];
  const { rows, event, show } = await listingFacts(
    claimed[0].show_pk,
    claimed.map((c) => c.id),
    db,
  );
  const tb = translator(locale, 'buy');
  const fee = translator(locale, 'pay')('order.lineFee');
  return claimed.flatMap((c) => {
    const facts = rows.get(c.id);
    const option = show?.ticketOptions.find((o) => o.id === c.ticket_option_id)?.title ?? c.ticket_option_id;
    const priceType = facts?.price_type_id
      ? (show?.priceTypes.find((p) => p.id === facts.price_type_id)?.title ?? null)
      : null;
    const seats = (facts?.seats ?? []).map(({ seating: s }) => ({
      section: text(s?.section),
      row: text(s?.row),
      seat: text(s?.seat),
    }));
    const name = [event?.title, priceType ? `${option} (${priceType})` : option, seatText(seats, tb)]
      .filter(Boolean)
      .join(' · ');
    const feeMinor = buyerFeeMinor(terms, c.price_minor, c.currency);
    return [
      { name, unitAmountMinor: Number(c.price_minor), quantity: c.ticket_count },
      ...(feeMinor > 0 ? [{ name: fee, unitAmountMinor: feeMinor, quantity: c.ticket_count }] : []),
    ];
  });
}
