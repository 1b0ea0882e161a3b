import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { notFound } from '@/server/lib/errors';

/*
 * "How is the market doing?" for staff: the market's figures over a date range, globally, for one partner
 * or one event, computed in SQL. The ops module reads other modules' tables directly (a
 * documented exception: aggregates over hundreds of thousands of rows cannot go through the owners one
 * row at a time) and never writes.
 */

const DAY = 24 * 3600_000;
/** The widest range the overview answers (a year and a day): wider is a report, not a dashboard. */
const OVERVIEW_MAX_DAYS = 366;

const isoDate = (field: string) => z.iso.date({ message: `${field} must be a date like 2026-11-27` });

/** The overview's filters: an inclusive range of UTC days, optionally one partner and one of its events. */
export const overviewInput = z
  .object({
    from: isoDate('from'),
    to: isoDate('to'),
    partnerId: z.string().trim().min(1).max(64).optional(),
    eventId: z.string().trim().min(1).max(64).optional(),
  })
  .superRefine((v, ctx) => {
    const days = (Date.parse(v.to) - Date.parse(v.from)) / DAY;
    if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be on or after from' });
    else if (days >= OVERVIEW_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `The range must be at most ${OVERVIEW_MAX_DAYS} days` });
    }
  });
export type OverviewInput = z.infer<typeof overviewInput>;

/** Money figures of one currency: amounts of different currencies are never added together. */
export interface CurrencyFigures {
  currency: string;
  /** Purchases (sold listings) and the tickets in them. */
  sales: number;
  ticketsResold: number;
  /** Resale volume: the ticket prices buyers paid, without the buyer fee. */
  gmvMinor: number;
  /** Encore's buyer fees on sales whose payout is not cancelled (as charged, stored on the payout). */
  buyerFeesMinor: number;
  /** Encore's seller fees on those sales, as charged. */
  sellerFeesMinor: number;
  /** The partner's primary sales fees on those sales, as taken. */
  partnerFeesMinor: number;
  /**
   * Sales before the split was recorded (migration 0036): what was kept from their sellers' prices,
   * Encore's seller fee and the partner's fee together (0 for every sale since).
   */
  unsplitFeesMinor: number;
  payouts: {
    /** Scheduled and due now (the show and the payout delay have passed). */
    dueMinor: number;
    /** Scheduled for later. */
    upcomingMinor: number;
    paidMinor: number;
    /** Scheduled payouts whose seller has no active payout account yet. */
    waitingForInfoMinor: number;
    waitingForInfo: number;
  };
  refunds: { count: number; amountMinor: number };
}

export interface SeriesPoint {
  /** A UTC day, YYYY-MM-DD. */
  day: string;
  currency: string;
  gmvMinor: number;
  tickets: number;
}

export interface MarketOverview {
  from: string;
  to: string;
  currencies: CurrencyFigures[];
  sales: number;
  ticketsResold: number;
  /** Median time from a listing being created to its sale, in seconds (null: no sales). */
  medianSecondsToSell: number | null;
  /**
   * Resale price over face value of the tickets sold (1 = at face): their prices' sum over their face
   * values' sum, for the tickets whose face value is known (null: none), whatever their currency.
   */
  priceToFace: number | null;
  /** Listings on sale now (ACTIVE or held by a buyer) and their tickets. */
  activeListings: { listings: number; tickets: number };
  /** Of the listings created in the range, how many are sold (rate null when none were created). */
  sellThrough: { listed: number; sold: number; rate: number | null };
  /** Tickets whose holder saw the code and changed hands, awaiting the partner's new code (now). */
  reissues: {
    awaited: number;
    oldestWaitSeconds: number | null;
    medianWaitSeconds: number | null;
    /** Reissued in the range, and the median delay from request to new code. */
    reissued: number;
    medianDelaySeconds: number | null;
  };
  /** Every day of the range per currency sold in (days without sales: zero). */
  series: SeriesPoint[];
}

/** The range as timestamps: from the first day's midnight (UTC) to the midnight after the last day. */
export function overviewBounds(input: Pick<OverviewInput, 'from' | 'to'>) {
  return { start: new Date(`${input.from}T00:00:00Z`), end: new Date(Date.parse(`${input.to}T00:00:00Z`) + DAY) };
}

/** The statements' bounds and filters (null: not filtered). */
interface Scope {
  start: string;
  end: string;
  partner: string | null;
  event: string | null;
}

/**
 * One partner's rows when the filter names one (a test partner too: staff look at its test data on
 * purpose), else every live partner's: test data (test mode) never counts in the market's figures.
 */
const inPartnerScope = (column: SQL, partner: string | null) =>
  partner === null ? sql`${column} in (select id from partners where mode = 'live')` : sql`${column} = ${partner}`;

/** The range's sales: listings sold in it (an index-only range scan of listings_sold_idx). */
const soldIn = ({ start, end, partner, event }: Scope) => sql`
  l.sold_at >= ${start}::timestamptz and l.sold_at < ${end}::timestamptz
    and ${inPartnerScope(sql`l.partner_id`, partner)}
    and (${event}::text is null or l.event_pk = ${event})`;

/** Sales per UTC day and currency: the series, and the totals as their sums (hashed, no sort). */
const salesStatement = (scope: Scope) => sql`
  select to_char((l.sold_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, l.currency,
    count(*)::int as sales, sum(l.ticket_count)::int as tickets, sum(l.price_minor * l.ticket_count)::bigint as gmv
  from listings l
  where ${soldIn(scope)}
  group by (l.sold_at at time zone 'UTC')::date, l.currency`;

/** The median time from listing to sale over the range's sales (a sort of one number per sale). */
const medianStatement = (scope: Scope) => sql`
  select percentile_cont(0.5) within group (order by extract(epoch from l.sold_at - l.created_at))::float8 as median
  from listings l
  where ${soldIn(scope)}`;

/**
 * The range's sales as their payouts record them: each sale's payout is inserted in the purchase's
 * transaction, so its `created_at` is its listing's `sold_at` (checked by the marketplace tests), and the
 * split (buyer fee, Encore's seller fee, the partner's fee) and the face value (with the ticket prices it
 * is the face value of) are stored on it. One range scan of payouts;
 * the event filter goes through the listings.
 */
const payoutsStatement = ({ start, end, partner, event }: Scope) => sql`
  select p.currency,
    coalesce(sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and p.due_at <= now()), 0)::bigint as due,
    coalesce(sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and p.due_at > now()), 0)::bigint as upcoming,
    coalesce(sum(p.amount_minor) filter (where p.status = 'PAID'), 0)::bigint as paid,
    coalesce(sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and a.partner_id is null), 0)::bigint as waiting,
    count(*) filter (where p.status = 'SCHEDULED' and a.partner_id is null)::int as waiting_count,
    coalesce(sum(p.buyer_fee_minor) filter (where p.status <> 'CANCELLED'), 0)::bigint as buyer_fees,
    coalesce(sum(p.seller_fee_minor) filter (where p.status <> 'CANCELLED'), 0)::bigint as seller_fees,
    coalesce(sum(p.partner_fee_minor) filter (where p.status <> 'CANCELLED'), 0)::bigint as partner_fees,
    coalesce(sum(p.gross_minor - p.amount_minor)
      filter (where p.status <> 'CANCELLED' and p.seller_fee_minor is null), 0)::bigint as unsplit,
    coalesce(sum(p.gross_minor) filter (where p.face_minor is not null), 0)::bigint as face_gross,
    coalesce(sum(p.face_minor), 0)::bigint as face
  from payouts p
  left join (select distinct partner_id, seller_email from seller_accounts where status = 'active') a
    on a.partner_id = p.partner_id and a.seller_email = p.seller_email
  where p.created_at >= ${start}::timestamptz and p.created_at < ${end}::timestamptz
    and ${inPartnerScope(sql`p.partner_id`, partner)}
    and (${event}::text is null or p.listing_id in (
      select l.id from listings l where l.event_pk = ${event}
        and l.sold_at >= ${start}::timestamptz and l.sold_at < ${end}::timestamptz))
  group by p.currency`;

/**
 * The face value of the range's sales whose payout does not store it (face_minor null: sold before
 * migration 0038 and not backfillable, a ticket without a face value or in another currency, a channel's
 * tickets not yet handed over), from their tickets (the ticket's price, else its option's), counting the
 * tickets with a face value above 0 in the listing's currency. A range scan of payouts_face_unknown_idx,
 * which holds only those payouts.
 */
const faceStatement = ({ start, end, partner, event }: Scope) => sql`
  select coalesce(sum(l.price_minor), 0)::bigint as gross,
    coalesce(sum(coalesce(t.price_minor, o.price_minor)), 0)::bigint as face
  from payouts p
  join listings l on l.id = p.listing_id
  join listing_items li on li.listing_id = l.id
  join tickets t on t.id = li.ticket_pk
  left join ticket_options o on o.show_pk = t.show_pk and o.ticket_id = t.ticket_option_id
  where p.face_minor is null and p.created_at >= ${start}::timestamptz and p.created_at < ${end}::timestamptz
    and ${inPartnerScope(sql`p.partner_id`, partner)}
    and (${event}::text is null or l.event_pk = ${event})
    and coalesce(t.price_minor, o.price_minor) > 0 and t.currency = l.currency`;

/** Refunds of the range, listings created in it and on sale now, reissues. */
const marketStatement = ({ start, end, partner, event }: Scope) => sql`
  with
    refunded as (
      select r.currency, count(*)::int as count, sum(r.amount_minor)::bigint as minor
      from refunds r
      where r.status = 'succeeded' and r.created_at >= ${start}::timestamptz and r.created_at < ${end}::timestamptz
        and ${inPartnerScope(sql`r.partner_id`, partner)}
        and (${event}::text is null or exists (
          select 1 from payments pay
          join buy_intentions bi on bi.id = pay.reference and bi.partner_id = pay.partner_id
          join listings l on l.id = bi.listing_ids[1]
          where pay.id = r.payment_id and pay.purpose = 'buy_intention' and l.event_pk = ${event}))
      group by r.currency
    ),
    listed as (
      select count(*)::int as listed, count(*) filter (where l.sold_at is not null)::int as sold
      from listings l
      where l.created_at >= ${start}::timestamptz and l.created_at < ${end}::timestamptz
        and ${inPartnerScope(sql`l.partner_id`, partner)}
        and (${event}::text is null or l.event_pk = ${event})
    ), active as (
      select count(*)::int as listings, coalesce(sum(l.ticket_count), 0)::int as tickets
      from listings l
      where l.status in ('ACTIVE', 'RESERVED')
        and ${inPartnerScope(sql`l.partner_id`, partner)}
        and (${event}::text is null or l.event_pk = ${event})
    ), awaited as (
      select count(*)::int as awaited,
        extract(epoch from now() - min(t.reissue_requested_at))::float8 as oldest,
        percentile_cont(0.5) within group (order by extract(epoch from now() - t.reissue_requested_at))::float8
          as median_wait
      from tickets t
      where t.reissue_requested_at is not null and t.reissued_at is null
        and ${inPartnerScope(sql`t.partner_id`, partner)}
        and (${event}::text is null or t.event_pk = ${event})
    ), reissued as (
      select count(*)::int as reissued,
        percentile_cont(0.5) within group (order by extract(epoch from t.reissued_at - t.reissue_requested_at))::float8
          as median_delay
      from tickets t
      where t.reissued_at >= ${start}::timestamptz and t.reissued_at < ${end}::timestamptz and t.reissue_requested_at is not null
        and ${inPartnerScope(sql`t.partner_id`, partner)}
        and (${event}::text is null or t.event_pk = ${event})
    )
  select
    (select json_agg(refunded) from refunded) as refunds,
    (select row_to_json(x) from active x) as active,
    (select row_to_json(x) from listed x) as through,
    (select json_build_object('awaited', a.awaited, 'oldest', a.oldest, 'median_wait', a.median_wait,
      'reissued', r.reissued, 'median_delay', r.median_delay) from awaited a, reissued r) as reissues`;

interface SalesRow extends Record<string, unknown> {
  day: string;
  currency: string;
  sales: number;
  tickets: number;
  gmv: string;
}

interface PayoutsRow extends Record<string, unknown> {
  currency: string;
  due: string;
  upcoming: string;
  paid: string;
  waiting: string;
  waiting_count: number;
  buyer_fees: string;
  seller_fees: string;
  partner_fees: string;
  unsplit: string;
  face_gross: string;
  face: string;
}

interface MarketRow {
  refunds: { currency: string; count: number; minor: number }[] | null;
  active: { listings: number; tickets: number };
  through: { listed: number; sold: number };
  reissues: {
    awaited: number;
    oldest: number | null;
    median_wait: number | null;
    reissued: number;
    median_delay: number | null;
  };
}

/** drizzle hands json columns over as text (its postgres.js driver leaves their parsing to the caller). */
function parsedRow(rows: Record<string, unknown>[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(rows[0]).map(([k, v]) => [k, typeof v === 'string' ? (JSON.parse(v) as unknown) : v]),
  );
}

/**
 * The market's figures for `input` (already validated by overviewInput): five statements at once on the
 * pool, each one range scan on an index (listings_sold_idx, payouts_created_idx, payouts_face_unknown_idx,
 * listings_created_idx, tickets_reissued_idx) rather than joins over whole tables.
 */
export async function marketOverview(input: OverviewInput, db: DbOrTx): Promise<MarketOverview> {
  const bounds = overviewBounds(input);
  const scope: Scope = {
    start: bounds.start.toISOString(),
    end: bounds.end.toISOString(),
    partner: input.partnerId ?? null,
    event: input.eventId ?? null,
  };
  const [sales, median, payoutRows, face, market] = await Promise.all([
    db.execute<SalesRow>(salesStatement(scope)),
    db.execute<{ median: number | null }>(medianStatement(scope)),
    db.execute<PayoutsRow>(payoutsStatement(scope)),
    db.execute<{ gross: string; face: string }>(faceStatement(scope)),
    db.execute<Record<string, unknown>>(marketStatement(scope)),
  ]);
  return shape(input, {
    days: [...sales],
    median: median[0]?.median ?? null,
    payouts: [...payoutRows],
    ratio: priceToFace(payoutRows, face[0]),
    market: parsedRow(market) as unknown as MarketRow,
  });
}

/** Resale over face: the payouts' stored face values and those read from the tickets, to 4 decimals. */
function priceToFace(payoutRows: PayoutsRow[], unstored: { gross: string; face: string } | undefined) {
  let gross = Number(unstored?.gross ?? 0);
  let face = Number(unstored?.face ?? 0);
  for (const p of payoutRows) {
    gross += Number(p.face_gross);
    face += Number(p.face);
  }
  return face > 0 ? Math.round((gross / face) * 10_000) / 10_000 : null;
}

/** The statements' rows as the overview: currencies merged from sales, payouts and refunds. */
function shape(
  input: OverviewInput,
  {
    days,
    median,
    payouts: payoutRows,
    ratio,
    market: row,
  }: { days: SalesRow[]; median: number | null; payouts: PayoutsRow[]; ratio: number | null; market: MarketRow },
): MarketOverview {
  const byCurrency = new Map<string, CurrencyFigures>();
  const figuresOf = (currency: string) => {
    let f = byCurrency.get(currency);
    if (!f) {
      f = {
        currency,
        sales: 0,
        ticketsResold: 0,
        gmvMinor: 0,
        buyerFeesMinor: 0,
        sellerFeesMinor: 0,
        partnerFeesMinor: 0,
        unsplitFeesMinor: 0,
        payouts: { dueMinor: 0, upcomingMinor: 0, paidMinor: 0, waitingForInfoMinor: 0, waitingForInfo: 0 },
        refunds: { count: 0, amountMinor: 0 },
      };
      byCurrency.set(currency, f);
    }
    return f;
  };
  for (const d of days) {
    const f = figuresOf(d.currency);
    f.sales += d.sales;
    f.ticketsResold += d.tickets;
    f.gmvMinor += Number(d.gmv);
  }
  for (const p of payoutRows) {
    const f = figuresOf(p.currency);
    f.buyerFeesMinor = Number(p.buyer_fees);
    f.sellerFeesMinor = Number(p.seller_fees);
    f.partnerFeesMinor = Number(p.partner_fees);
    f.unsplitFeesMinor = Number(p.unsplit);
    f.payouts = {
      dueMinor: Number(p.due),
      upcomingMinor: Number(p.upcoming),
      paidMinor: Number(p.paid),
      waitingForInfoMinor: Number(p.waiting),
      waitingForInfo: p.waiting_count,
    };
  }
  for (const r of row.refunds ?? []) figuresOf(r.currency).refunds = { count: r.count, amountMinor: Number(r.minor) };
  const currencies = [...byCurrency.values()].sort(
    (a, b) => b.gmvMinor - a.gmvMinor || a.currency.localeCompare(b.currency),
  );
  const sales = currencies.reduce((n, c) => n + c.sales, 0);
  const secs = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return {
    from: input.from,
    to: input.to,
    currencies,
    sales,
    ticketsResold: currencies.reduce((n, c) => n + c.ticketsResold, 0),
    medianSecondsToSell: secs(median),
    priceToFace: ratio,
    activeListings: row.active,
    sellThrough: {
      ...row.through,
      rate: row.through.listed ? Math.round((row.through.sold / row.through.listed) * 10_000) / 10_000 : null,
    },
    reissues: {
      awaited: row.reissues.awaited,
      oldestWaitSeconds: secs(row.reissues.oldest),
      medianWaitSeconds: secs(row.reissues.median_wait),
      reissued: row.reissues.reissued,
      medianDelaySeconds: secs(row.reissues.median_delay),
    },
    series: seriesOf(input, days),
  };
}

/** Every day of the range for each currency sold in (days without sales: zero), by day then currency. */
function seriesOf(input: OverviewInput, days: SalesRow[]): SeriesPoint[] {
  const sold = [...new Set(days.map((d) => d.currency))].sort();
  if (!sold.length) return [];
  const at = new Map(days.map((d) => [`${d.day} ${d.currency}`, d]));
  const out: SeriesPoint[] = [];
  const last = Date.parse(`${input.to}T00:00:00Z`);
  for (let t = Date.parse(`${input.from}T00:00:00Z`); t <= last; t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    for (const currency of sold) {
      const d = at.get(`${day} ${currency}`);
      out.push({ day, currency, gmvMinor: d ? Number(d.gmv) : 0, tickets: d ? d.tickets : 0 });
    }
  }
  return out;
}

/**
 * The filters name things that exist: the partner, and the event as one of that partner's (an event alone
 * is looked up anywhere). Unknown: a 404 naming which.
 */
export async function checkOverviewScope(input: Pick<OverviewInput, 'partnerId' | 'eventId'>, db: DbOrTx) {
  if (input.partnerId) {
    const found = await db.execute(sql`select 1 from partners where id = ${input.partnerId}`);
    if (!found.length) throw notFound('Partner not found');
  }
  if (input.eventId) {
    const found = await db.execute(
      sql`select 1 from events where id = ${input.eventId}
        and (${input.partnerId ?? null}::text is null or partner_id = ${input.partnerId ?? null})`,
    );
    if (!found.length) throw notFound(input.partnerId ? 'Event not found for this partner' : 'Event not found');
  }
}

/** The filters' choices: every partner, and the events of the chosen one (newest first). */
export async function overviewFilterOptions(
  partnerId: string | undefined,
  db: DbOrTx,
): Promise<{ partners: { id: string; name: string }[]; events: { id: string; title: string }[] }> {
  const partners = await db.execute<{ id: string; name: string }>(
    sql`select id, name from partners where mode = 'live' order by lower(name), id`,
  );
  const events = partnerId
    ? await db.execute<{ id: string; title: string }>(
        sql`select id, title from events where partner_id = ${partnerId} order by created_at desc, id limit 500`,
      )
    : [];
  return { partners: [...partners], events: [...events] };
}
