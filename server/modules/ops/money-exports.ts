import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { csvLine } from '@/server/lib/csv';
import { fromMinorUnits } from '@/server/lib/money';
import { BUY_INTENTION_PURPOSE } from '@/server/modules/marketplace';
import type { Period } from './period';

/*
 * A partner's market as CSV for a period, streamed: a header, then lines read a page at a time in time
 * order (each kind's time, then id: keyset, never OFFSET), amounts in major units beside their currency,
 * formula cells defused.
 */

export const MONEY_EXPORT_KINDS = ['listings', 'purchases', 'payouts', 'refunds'] as const;
export type MoneyExportKind = (typeof MONEY_EXPORT_KINDS)[number];

export const isMoneyExportKind = (kind: string): kind is MoneyExportKind =>
  (MONEY_EXPORT_KINDS as readonly string[]).includes(kind);

/** `sort_at`: the row's time as PostgreSQL's text (microseconds kept), the keyset's first half. */
type Row = Record<string, unknown> & { id: string; sort_at: string };

interface ExportSpec {
  columns: readonly string[];
  /**
   * One page of rows of this partner and period, in the order of its time column then id; `after` is
   * the condition that starts it after the previous page's last row (`moneyCsv` builds it).
   */
  page: (partnerId: string, period: Period, after: (at: SQL, id: SQL) => SQL, limit: number) => SQL;
  line: (r: Row) => unknown[];
}

const money = (minor: unknown, currency: unknown) =>
  minor === null || minor === undefined ? '' : fromMinorUnits(Number(minor), String(currency));
const iso = (v: unknown) => (v ? new Date(String(v)).toISOString() : '');
const inPeriod = (column: SQL, period: Period) =>
  sql`${column} >= ${period.start.toISOString()} and ${column} < ${period.end.toISOString()}`;

const SPECS: Record<MoneyExportKind, ExportSpec> = {
  // Listings put on sale in the period.
  listings: {
    columns: [
      'listingId',
      'createdAt',
      'status',
      'type',
      'externalReferenceEventId',
      'showId',
      'sellerEmail',
      'ticketCount',
      'price',
      'currency',
      'ticketIds',
      'soldAt',
    ],
    page: (partnerId, period, after, limit) => sql`
      select l.id, l.created_at::text as sort_at, l.created_at, l.status, l.type, e.external_reference_id as event_ref, s.show_id, l.seller_email,
        l.ticket_count, l.price_minor, l.currency, l.sold_at,
        array(select li.ticket_id from listing_items li where li.listing_id = l.id order by li.ticket_id) as ticket_ids
      from listings l
      join events e on e.id = l.event_pk
      join shows s on s.id = l.show_pk
      where l.partner_id = ${partnerId} and ${inPeriod(sql`l.created_at`, period)}
        and ${after(sql`l.created_at`, sql`l.id`)}
      order by l.created_at, l.id limit ${limit}`,
    line: (r) => [
      r.id,
      iso(r.created_at),
      r.status,
      r.type,
      r.event_ref,
      r.show_id,
      r.seller_email,
      r.ticket_count,
      money(r.price_minor, r.currency),
      r.currency,
      (r.ticket_ids as string[]).join(' '),
      iso(r.sold_at),
    ],
  },
  // Payments captured in the period, with the purchase they paid for.
  purchases: {
    columns: [
      'paymentId',
      'intentionId',
      'paidAt',
      'buyerEmail',
      'purchaseStatus',
      'paymentStatus',
      'listingIds',
      'subtotal',
      'buyerFee',
      'total',
      'captured',
      'refunded',
      'currency',
      'refundReason',
    ],
    page: (partnerId, period, after, limit) => sql`
      select p.id, p.paid_at::text as sort_at, i.id as intention_id, p.paid_at, p.buyer_email, i.status as intention_status, i.refunded_at,
        p.status, i.listing_ids, i.subtotal_minor, i.buyer_fee_minor, i.total_minor, p.amount_minor,
        p.refunded_minor, p.currency, i.refund_reason
      from payments p
      left join buy_intentions i on i.id = p.reference and i.partner_id = p.partner_id
      where p.partner_id = ${partnerId} and p.purpose = ${BUY_INTENTION_PURPOSE}
        and ${inPeriod(sql`p.paid_at`, period)} and ${after(sql`p.paid_at`, sql`p.id`)}
      order by p.paid_at, p.id limit ${limit}`,
    line: (r) => [
      r.id,
      r.intention_id,
      iso(r.paid_at),
      r.buyer_email,
      r.refunded_at ? 'REFUNDED' : r.intention_status,
      r.status,
      ((r.listing_ids as string[] | null) ?? []).join(' '),
      money(r.subtotal_minor, r.currency),
      money(r.buyer_fee_minor, r.currency),
      money(r.total_minor, r.currency),
      money(r.amount_minor, r.currency),
      money(r.refunded_minor, r.currency),
      r.currency,
      r.refund_reason,
    ],
  },
  // Payouts scheduled in the period (each sale's), whatever became of them since.
  payouts: {
    columns: [
      'payoutId',
      'createdAt',
      'status',
      'sellerEmail',
      'amount',
      'currency',
      'dueAt',
      'paidAt',
      'listingId',
      'intentionId',
      'paymentId',
    ],
    page: (partnerId, period, after, limit) => sql`
      select po.id, po.created_at::text as sort_at, po.created_at, po.status, po.seller_email, po.amount_minor, po.currency, po.due_at, po.paid_at,
        po.listing_id, po.intention_id, i.payment_id
      from payouts po
      left join buy_intentions i on i.id = po.intention_id
      where po.partner_id = ${partnerId} and ${inPeriod(sql`po.created_at`, period)}
        and ${after(sql`po.created_at`, sql`po.id`)}
      order by po.created_at, po.id limit ${limit}`,
    line: (r) => [
      r.id,
      iso(r.created_at),
      r.status,
      r.seller_email,
      money(r.amount_minor, r.currency),
      r.currency,
      iso(r.due_at),
      iso(r.paid_at),
      r.listing_id,
      r.intention_id,
      r.payment_id,
    ],
  },
  // Refunds asked for in the period.
  refunds: {
    columns: ['refundId', 'createdAt', 'status', 'amount', 'currency', 'reason', 'paymentId', 'intentionId'],
    page: (partnerId, period, after, limit) => sql`
      select r.id, r.created_at::text as sort_at, r.created_at, r.status, r.amount_minor, r.currency, r.reason, r.payment_id, p.reference
      from refunds r
      join payments p on p.id = r.payment_id
      where r.partner_id = ${partnerId} and ${inPeriod(sql`r.created_at`, period)}
        and ${after(sql`r.created_at`, sql`r.id`)}
      order by r.created_at, r.id limit ${limit}`,
    line: (r) => [
      r.id,
      iso(r.created_at),
      r.status,
      money(r.amount_minor, r.currency),
      r.currency,
      r.reason,
      r.payment_id,
      r.reference,
    ],
  },
};

/** One kind of a partner's money export for a period: a header, then its lines a page at a time. */
export async function* moneyCsv(
  kind: MoneyExportKind,
  partnerId: string,
  period: Period,
  db: DbOrTx,
  pageSize = 1000,
): AsyncGenerator<string> {
  const spec = SPECS[kind];
  yield csvLine(spec.columns);
  let last: Row | undefined;
  for (;;) {
    const from = last;
    const after = (at: SQL, id: SQL) =>
      from ? sql`(${at}, ${id}) > (${from.sort_at}::timestamptz, ${from.id})` : sql`true`;
    const rows = await db.execute<Row>(spec.page(partnerId, period, after, pageSize));
    if (!rows.length) return;
    yield rows.map((r) => csvLine(spec.line(r))).join('');
    last = rows[rows.length - 1];
  }
}
