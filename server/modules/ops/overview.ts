import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { notFound } from '@/server/lib/errors';

/*
 * "How is the market doing?" for staff: the market's figures over a date range, globally, for one partner
 * or one event, computed in one SQL statement. The ops module reads other modules' tables directly (a
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
  /** Encore's buyer fees on purchases that were not refunded. */
  buyerFeesMinor: number;
  /**
   * What was kept from sellers' prices on sales not refunded: Encore's seller fee plus the partner's primary
   * sales fee (the ledger stores the payout, not the split).
   */
  sellerFeesMinor: number;
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
  /** Average resale price over face value per ticket sold (1 = at face; null: no face value known). */
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

/** Rows as the statement answers them (json: numbers come back as numbers, dates as strings). */
interface OverviewRow {
  sales: Omit<CurrencyFigures, 'refunds' | 'buyerFeesMinor'>[] | null;
  buyer_fees: { currency: string; minor: number }[] | null;
  refunds: { currency: string; count: number; minor: number }[] | null;
  median_to_sell: number | null;
  price_to_face: number | string | null;
  active: { listings: number; tickets: number };
  through: { listed: number; sold: number };
  reissues: {
    awaited: number;
    oldest: number | null;
    median_wait: number | null;
    reissued: number;
    median_delay: number | null;
  };
  series: SeriesPoint[] | null;
}

/** The range as timestamps: from the first day's midnight (UTC) to the midnight after the last day. */
export function overviewBounds(input: Pick<OverviewInput, 'from' | 'to'>) {
  return { start: new Date(`${input.from}T00:00:00Z`), end: new Date(Date.parse(`${input.to}T00:00:00Z`) + DAY) };
}

/** The statement's bounds and filters (null: not filtered). */
interface Scope {
  start: string;
  end: string;
  partner: string | null;
  event: string | null;
}

/**
 * One partner's rows when the filter names one (a test partner too: staff look at its test data on
 * purpose), else every live partner's: test data (test mode, issue 33) never counts in the market's figures.
 */
const inPartnerScope = (column: SQL, partner: string | null) =>
  partner === null ? sql`${column} in (select id from partners where mode = 'live')` : sql`${column} = ${partner}`;

/** The range's sales: sold listings of the scope (each statement below starts from it). */
const soldCte = ({ start, end, partner, event }: Scope) => sql`
    sold as (
      select l.id, l.currency, l.price_minor, l.ticket_count, l.created_at, l.sold_at, l.reserved_by
      from listings l
      where l.sold_at >= ${start}::timestamptz and l.sold_at < ${end}::timestamptz
        and ${inPartnerScope(sql`l.partner_id`, partner)}
        and (${event}::text is null or l.event_pk = ${event})
    )`;

/** Sales per currency with their payouts, the median time to sell and the daily series. */
const salesStatement = (scope: Scope) => sql`
  with ${soldCte(scope)},
    settled as (
      -- A join, not NOT EXISTS in the select list: that ran as a sub-plan once per payout.
      select s.*, p.status as payout_status, p.amount_minor as payout_minor, p.due_at,
        p.status = 'SCHEDULED' and a.partner_id is null as waiting_info
      from sold s left join payouts p on p.listing_id = s.id
      left join (select distinct partner_id, seller_email from seller_accounts where status = 'active') a
        on a.partner_id = p.partner_id and a.seller_email = p.seller_email
    ), sales as (
      select currency, count(*)::int as sales, sum(ticket_count)::int as "ticketsResold",
        sum(price_minor * ticket_count)::bigint as "gmvMinor",
        coalesce(sum(price_minor * ticket_count - payout_minor) filter (where payout_status in ('SCHEDULED', 'PAID')), 0)::bigint
          as "sellerFeesMinor",
        json_build_object(
          'dueMinor', coalesce(sum(payout_minor) filter (where payout_status = 'SCHEDULED' and due_at <= now()), 0),
          'upcomingMinor', coalesce(sum(payout_minor) filter (where payout_status = 'SCHEDULED' and due_at > now()), 0),
          'paidMinor', coalesce(sum(payout_minor) filter (where payout_status = 'PAID'), 0),
          'waitingForInfoMinor', coalesce(sum(payout_minor) filter (where waiting_info), 0),
          'waitingForInfo', count(*) filter (where waiting_info)
        ) as payouts
      from settled group by currency
    ),
    days as (
      select (d at time zone 'UTC')::date as day
      from generate_series(${scope.start}::timestamptz, ${scope.end}::timestamptz - interval '1 day', interval '1 day') d
    ), daily as (
      select (sold_at at time zone 'UTC')::date as day, currency,
        sum(price_minor * ticket_count)::bigint as gmv, sum(ticket_count)::int as tickets
      from sold group by 1, 2
    )
  select
    (select json_agg(x order by x."gmvMinor" desc) from sales x) as sales,
    (select percentile_cont(0.5) within group (order by extract(epoch from sold_at - created_at)) from sold)
      as median_to_sell,
    (select json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'currency', c.currency,
        'gmvMinor', coalesce(x.gmv, 0), 'tickets', coalesce(x.tickets, 0)) order by d.day, c.currency)
      from days d cross join (select distinct currency from sold) c
      left join daily x on x.day = d.day and x.currency = c.currency) as series`;

/** Buyer fees earned and the resale price over face value of the range's sales. */
const feesStatement = (scope: Scope) => sql`
  with ${soldCte(scope)},
    fees as (
      select bi.currency, sum(bi.buyer_fee_minor)::bigint as minor
      from buy_intentions bi
      where bi.id in (select reserved_by from sold) and bi.refunded_at is null
      group by bi.currency
    ), faces as (
      select avg(s.price_minor::numeric / coalesce(t.price_minor, o.price_minor)) as ratio
      from sold s
      join listing_items li on li.listing_id = s.id
      join tickets t on t.id = li.ticket_pk
      left join ticket_options o on o.show_pk = t.show_pk and o.ticket_id = t.ticket_option_id
      where coalesce(t.price_minor, o.price_minor) > 0 and t.currency = s.currency
    )
  select (select json_agg(fees) from fees) as buyer_fees, (select round(ratio, 4) from faces) as price_to_face`;

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

/** drizzle hands json columns over as text (its postgres.js driver leaves their parsing to the caller). */
function parsedRow(rows: Record<string, unknown>[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(rows[0]).map(([k, v]) => [k, typeof v === 'string' ? (JSON.parse(v) as unknown) : v]),
  );
}

/**
 * The market's figures for `input` (already validated by overviewInput): three statements at once on the
 * pool, so PostgreSQL works them on several cores (one statement ran its aggregates one after another).
 */
export async function marketOverview(input: OverviewInput, db: DbOrTx): Promise<MarketOverview> {
  const bounds = overviewBounds(input);
  const scope: Scope = {
    start: bounds.start.toISOString(),
    end: bounds.end.toISOString(),
    partner: input.partnerId ?? null,
    event: input.eventId ?? null,
  };
  const [sales, fees, market] = await Promise.all([
    db.execute<Record<string, unknown>>(salesStatement(scope)),
    db.execute<Record<string, unknown>>(feesStatement(scope)),
    db.execute<Record<string, unknown>>(marketStatement(scope)),
  ]);
  const row = { ...parsedRow(sales), ...parsedRow(fees), ...parsedRow(market) };
  return shape(input, row as unknown as OverviewRow);
}

/** The statement's row as the overview: currencies merged from sales, fees and refunds. */
function shape(input: OverviewInput, row: OverviewRow): MarketOverview {
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
        payouts: { dueMinor: 0, upcomingMinor: 0, paidMinor: 0, waitingForInfoMinor: 0, waitingForInfo: 0 },
        refunds: { count: 0, amountMinor: 0 },
      };
      byCurrency.set(currency, f);
    }
    return f;
  };
  for (const s of row.sales ?? []) Object.assign(figuresOf(s.currency), s);
  for (const f of row.buyer_fees ?? []) figuresOf(f.currency).buyerFeesMinor = Number(f.minor);
  for (const r of row.refunds ?? []) figuresOf(r.currency).refunds = { count: r.count, amountMinor: Number(r.minor) };
  const currencies = [...byCurrency.values()];
  const sales = currencies.reduce((n, c) => n + c.sales, 0);
  const secs = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return {
    from: input.from,
    to: input.to,
    currencies,
    sales,
    ticketsResold: currencies.reduce((n, c) => n + c.ticketsResold, 0),
    medianSecondsToSell: secs(row.median_to_sell),
    priceToFace: row.price_to_face === null ? null : Number(row.price_to_face),
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
    series: row.series ?? [],
  };
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
