import type { Sql } from 'postgres';
import { getDb, getSql } from '@/db';
import { marketOverview, overviewBounds, type OverviewInput } from '@/server/modules/ops';
import { createStaff } from '@/server/modules/staff';
import { marketWith } from './market';
import type { BenchResult } from './run';
import { machine, startApp } from './servers';

const DAY = 24 * 3600_000;
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * `n` completed purchases of one partner's event, in one statement (generate_series, not one by one):
 * tickets, their sold listings (sold over the last 60 days), listing items, completed intentions and
 * payouts (a third paid, each with its split and face value); 1 % refunded (payment + refund), one ticket in 500 awaiting a reissue; and
 * n / 10 listings on sale.
 */
export async function seedPurchases(sql: Sql, partnerId: string, n: number, currency: string) {
  const [place] = await sql<{ event_pk: string; show_pk: string }[]>`
    select e.id as event_pk, s.id as show_pk from events e join shows s on s.event_id = e.id
    where e.partner_id = ${partnerId} limit 1`;
  const p = partnerId.slice(-8);
  await sql`
    with g as (
      select g, 'tkt_ob_' || ${p} || '_' || g as tkt, 'lst_ob_' || ${p} || '_' || g as lst,
        'bi_ob_' || ${p} || '_' || g as bi, 'seller' || (g % 5000) || '@bench.test' as seller,
        (4000 + g % 3000)::bigint as price,
        now() - (g % 60) * interval '1 day' - (g % 1440) * interval '1 minute' as sold_at
      from generate_series(1, ${n}) g
    ), t as (
      insert into tickets (id, partner_id, ticket_id, event_pk, show_pk, ticket_option_id, currency, price_minor,
        buyer, buyer_email, data, reissue_requested_at)
      select tkt, ${partnerId}, 'OB-' || g, ${place.event_pk}, ${place.show_pk}, 'GA', ${currency}, 4000,
        '{}'::jsonb, 'buyer' || g || '@bench.test', '{}'::jsonb,
        case when g % 500 = 0 then now() - (g % 48) * interval '1 hour' end
      from g
    ), l as (
      insert into listings (id, partner_id, event_pk, show_pk, ticket_option_id, seller_email, type, status, currency,
        price_minor, ticket_count, reserved_by, sold_at, created_at, updated_at)
      select lst, ${partnerId}, ${place.event_pk}, ${place.show_pk}, 'GA', seller, 'SINGLE', 'SOLD', ${currency},
        price, 1, bi, sold_at, sold_at - (g % 72) * interval '1 hour', sold_at
      from g
    ), li as (
      insert into listing_items (listing_id, ticket_pk, partner_id, ticket_id, open)
      select lst, tkt, ${partnerId}, 'OB-' || g, false from g
    ), i as (
      insert into buy_intentions (id, partner_id, buyer_email, status, listing_ids, currency, subtotal_minor,
        buyer_fee_minor, total_minor, expires_at, created_at, ended_at, refunded_at, refund_reason)
      select bi, ${partnerId}, 'buyer' || g || '@bench.test', 'COMPLETED', array[lst], ${currency}, price,
        price / 10, price + price / 10, sold_at, sold_at, sold_at,
        case when g % 100 = 0 then sold_at + interval '1 day' end, case when g % 100 = 0 then 'STAFF_REFUND' end
      from g
    ), po as (
      insert into payouts (id, partner_id, seller_email, listing_id, intention_id, currency, amount_minor,
        gross_minor, buyer_fee_minor, seller_fee_minor, partner_fee_minor, face_minor, status, due_at, paid_at,
        created_at)
      select 'po_ob_' || ${p} || '_' || g, ${partnerId}, seller, lst, bi, ${currency}, price * 95 / 100,
        price, price / 10, price - price * 95 / 100, 0, 4000,
        case when g % 100 = 0 then 'CANCELLED' when g % 3 = 0 then 'PAID' else 'SCHEDULED' end,
        sold_at + (g % 40 - 20) * interval '1 day', case when g % 3 = 0 then sold_at end, sold_at
      from g
    ), pay as (
      insert into payments (id, partner_id, purpose, reference, description, amount_minor, currency, buyer_email,
        status, provider, success_url, cancel_url, refunded_minor, expires_at, paid_at)
      select 'pay_ob_' || ${p} || '_' || g, ${partnerId}, 'buy_intention', bi, 'bench', price + price / 10,
        ${currency}, 'buyer' || g || '@bench.test', 'refunded', 'sandbox', 'https://encore.test/ok',
        'https://encore.test/no', price + price / 10, sold_at, sold_at
      from g where g % 100 = 0
    ), r as (
      insert into refunds (id, partner_id, payment_id, amount_minor, currency, reason, status, created_at)
      select 'rfd_ob_' || ${p} || '_' || g, ${partnerId}, 'pay_ob_' || ${p} || '_' || g, price + price / 10,
        ${currency}, 'STAFF_REFUND', 'succeeded', sold_at + interval '1 day'
      from g where g % 100 = 0
    )
    insert into listings (id, partner_id, event_pk, show_pk, ticket_option_id, seller_email, type, status, currency,
      price_minor, ticket_count, created_at)
    select 'lst_oa_' || ${p} || '_' || g, ${partnerId}, ${place.event_pk}, ${place.show_pk}, 'GA',
      'seller' || g || '@bench.test', 'SINGLE', 'ACTIVE', ${currency}, 4500, 1, now() - (g % 30) * interval '1 day'
    from generate_series(1, ${Math.floor(n / 10)}) g`;
  return place.event_pk;
}

/**
 * The baseline: the overview's aggregates written plainly, one statement each, through postgres.js (all at
 * once on the pool, as a hand-written report would run them).
 */
function baselineQueries(sql: Sql, input: OverviewInput) {
  const bounds = overviewBounds(input);
  // As text: drizzle replaced postgres.js's Date serializer on the shared pool.
  const start = bounds.start.toISOString();
  const end = bounds.end.toISOString();
  const by = (col: string) => [
    input.partnerId ? sql`and ${sql(col)}.partner_id = ${input.partnerId}` : sql``,
    input.eventId ? sql`and ${sql(col)}.event_pk = ${input.eventId}` : sql``,
  ];
  const [lp, le] = by('l');
  const [tp, te] = by('t');
  const soldIn = sql`l.sold_at >= ${start}::timestamptz and l.sold_at < ${end}::timestamptz ${lp} ${le}`;
  return Promise.all([
    sql`select l.currency, count(*), sum(l.ticket_count), sum(l.price_minor * l.ticket_count),
        sum(p.buyer_fee_minor) filter (where p.status <> 'CANCELLED'),
        sum(p.seller_fee_minor) filter (where p.status <> 'CANCELLED'),
        sum(p.partner_fee_minor) filter (where p.status <> 'CANCELLED'),
        sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and p.due_at <= now()),
        sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and p.due_at > now()),
        sum(p.amount_minor) filter (where p.status = 'PAID'),
        sum(p.amount_minor) filter (where p.status = 'SCHEDULED' and a.id is null),
        count(*) filter (where p.status = 'SCHEDULED' and a.id is null)
      from listings l left join payouts p on p.listing_id = l.id
      left join seller_accounts a on a.partner_id = p.partner_id and a.seller_email = p.seller_email and a.status = 'active'
      where ${soldIn} group by l.currency`,
    sql`select percentile_cont(0.5) within group (order by extract(epoch from l.sold_at - l.created_at))
      from listings l where ${soldIn}`,
    sql`select sum(l.price_minor)::numeric / sum(coalesce(t.price_minor, o.price_minor)) from listings l
      join listing_items li on li.listing_id = l.id join tickets t on t.id = li.ticket_pk
      left join ticket_options o on o.show_pk = t.show_pk and o.ticket_id = t.ticket_option_id
      where ${soldIn} and coalesce(t.price_minor, o.price_minor) > 0 and t.currency = l.currency`,
    sql`select r.currency, count(*), sum(r.amount_minor) from refunds r
      join payments pay on pay.id = r.payment_id
      join buy_intentions bi on bi.id = pay.reference join listings l on l.id = bi.listing_ids[1]
      where r.status = 'succeeded' and r.created_at >= ${start}::timestamptz and r.created_at < ${end}::timestamptz ${lp} ${le}
      group by r.currency`,
    sql`select count(*), count(*) filter (where l.sold_at is not null) from listings l
      where l.created_at >= ${start}::timestamptz and l.created_at < ${end}::timestamptz ${lp} ${le}`,
    sql`select count(*), sum(l.ticket_count) from listings l where l.status in ('ACTIVE', 'RESERVED') ${lp} ${le}`,
    sql`select count(*), min(t.reissue_requested_at),
        percentile_cont(0.5) within group (order by extract(epoch from now() - t.reissue_requested_at))
      from tickets t where t.reissue_requested_at is not null and t.reissued_at is null ${tp} ${te}`,
    sql`select count(*), percentile_cont(0.5) within group (order by extract(epoch from t.reissued_at - t.reissue_requested_at))
      from tickets t where t.reissued_at >= ${start}::timestamptz and t.reissued_at < ${end}::timestamptz ${tp} ${te}`,
    sql`select (l.sold_at at time zone 'UTC')::date, l.currency, sum(l.price_minor * l.ticket_count), sum(l.ticket_count)
      from listings l where ${soldIn} group by 1, 2 order by 1, 2`,
  ]);
}

/** A staff member signed in over HTTP as a browser does (next-auth's CSRF token, then the credentials). */
async function staffCookie(base: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/dashboard` }),
  });
  const session = res.headers.getSetCookie().find((c) => c.includes('session-token'));
  if (!session) throw new Error(`staff sign-in answered ${res.status} without a session`);
  return [...jar, session.split(';')[0]].join('; ');
}

/**
 * ops-overview: the dashboard overview's figures (marketOverview's statements) over 200,000 purchases of
 * four partners (one in USD), median of the global, one-partner and one-event views of the last 30 days;
 * baseline: the same aggregates written plainly through postgres.js. Then GET /dashboard on the built app
 * (signed in), whose goal is under a second: its `#` line says whether it is.
 */
export async function run(): Promise<BenchResult> {
  const PURCHASES = Number(process.env.BENCH_OVERVIEW_PURCHASES ?? 200_000);
  const PARTNERS = 4;
  const sql = getSql();
  const scopes: OverviewInput[] = [];
  const today = Date.now();
  const range = { from: utcDay(today - 29 * DAY), to: utcDay(today) };
  scopes.push(range);
  for (let i = 0; i < PARTNERS; i++) {
    const m = await marketWith(0);
    const eventId = await seedPurchases(sql, m.partnerId, PURCHASES / PARTNERS, i === PARTNERS - 1 ? 'USD' : 'EUR');
    if (i === 0) scopes.push({ ...range, partnerId: m.partnerId }, { ...range, partnerId: m.partnerId, eventId });
  }
  await sql`analyze`;
  console.log(
    `# ops-overview: ${PURCHASES} purchases of ${PARTNERS} partners, last 30 days (global, one partner, one event), median of ${RUNS}; ${machine()}`,
  );
  const time = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const project: number[] = [];
  const baseline: number[] = [];
  const global = await marketOverview(range, getDb());
  if (global.ticketsResold < PURCHASES / 3) throw new Error(`overview counted ${global.ticketsResold} tickets resold`);
  for (let rep = 0; rep < RUNS; rep++) {
    for (const scope of scopes) {
      project.push(await time(() => marketOverview(scope, getDb())));
      baseline.push(await time(() => baselineQueries(sql, scope)));
    }
  }

  console.log(
    `# ops-overview queries: module ${median(project).toFixed(1)} ms, plain aggregates ${median(baseline).toFixed(1)} ms (medians over ${project.length} reads each)`,
  );
  const base = await startApp(process.env.DATABASE_URL ?? '');
  const email = `bench-staff-${Date.now()}@bench.test`;
  const password = 'bench-password-123';
  await createStaff({ email, password, role: 'admin' }, getDb());
  const cookie = await staffCookie(base, email, password);
  const page = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/dashboard`, { headers: { cookie }, redirect: 'manual' });
    const html = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200 || !html.includes('data-testid="overview-gmv"')) {
      throw new Error(`GET /dashboard answered ${res.status} without the overview`);
    }
    return ms;
  };
  await page();
  const pageTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) pageTimes.push(await page());
  const pageMs = median(pageTimes);
  console.log(
    `# ops-overview page: GET /dashboard (global, last 30 days) median ${pageMs.toFixed(0)} ms, max ${Math.max(...pageTimes).toFixed(0)} ms: ${pageMs < 1000 ? 'under' : 'OVER'} 1 s`,
  );
  return { value: median(project), baseline: median(baseline), unit: 'ms', kind: 'time' };
}
