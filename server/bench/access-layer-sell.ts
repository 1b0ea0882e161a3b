import { POST as accessLayerPost } from '@/app/v1/wrapper/accesslayer/route';
import { getSql } from '@/db';
import { apiRequest } from '@/server/testing/fixtures';
import { marketWith, SELLER } from './market';
import type { BenchResult } from './run';
import { machine } from './servers';

const TICKETS = 1000;
const RUNS = 25;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * access-layer-sell: median latency of `POST /v1/wrapper/accesslayer` in tickets mode through its route
 * handler (in process: key check, validation, eligibility, CTAs, envelope) for one seller's 1,000
 * tickets, of which 300 listed and 200 sold, against the raw SQL reads the answer needs (shows, tickets,
 * their listings, the event's resale rules, the seller's payout account, the partner's ticket protection,
 * the sell banners and the shows' primary inventory behind them) through postgres.js, in the same two
 * waves the module makes.
 */
export async function run(): Promise<BenchResult> {
  const m = await marketWith(TICKETS);
  const sql = getSql();
  // Half the tickets listed (one statement), then 200 of those sold.
  await sql`
    with t as (
      select id as pk, ticket_id, event_pk, show_pk, data, row_number() over (order by ticket_id) as n
      from tickets where partner_id = ${m.partnerId}
    ), l as (
      insert into listings (id, partner_id, event_pk, show_pk, ticket_option_id, seller_email, type, currency,
        price_minor, ticket_count, status, sold_at)
      select 'lst_al_' || n, ${m.partnerId}, event_pk, show_pk, 'GA', ${SELLER}, 'SINGLE', 'EUR', 5000, 1,
        case when n <= 200 then 'SOLD' else 'ACTIVE' end, case when n <= 200 then now() end
      from t where n <= ${TICKETS / 2}
      returning id
    )
    insert into listing_items (listing_id, ticket_pk, partner_id, ticket_id, seating, open)
    select 'lst_al_' || n, pk, ${m.partnerId}, ticket_id, data -> 'props' -> 'seating', n > 200
    from t where n <= ${TICKETS / 2}`;
  await sql`analyze listings`;
  await sql`analyze listing_items`;
  const body = {
    user: SELLER,
    tickets: m.ticketIds.map((ticketId) => ({ eventId: m.ref, showId: 'S1', ticketId, ticketOptionId: 'GA' })),
  };
  console.log(
    `# access-layer-sell: tickets mode, ${TICKETS} tickets of one seller (300 listed, 200 sold, 500 sellable), ` +
      `route handler in process; median of ${RUNS}; baseline = the raw reads the answer needs (banners and protection included) through postgres.js; ${machine()}`,
  );

  const project = async () => {
    const req = apiRequest('/v1/wrapper/accesslayer', { key: m.key, body });
    const t0 = performance.now();
    const res = await accessLayerPost(req);
    const json = (await res.json()) as { data: { tickets: { status: string }[] } };
    const ms = performance.now() - t0;
    const sold = json.data.tickets.filter((t) => t.status === 'SOLD').length;
    if (res.status !== 200 || json.data.tickets.length !== TICKETS || sold !== 200)
      throw new Error(`access-layer-sell: unexpected answer (${res.status}, ${sold} sold)`);
    return ms;
  };
  const raw = async () => {
    const t0 = performance.now();
    const [shows, tickets] = await Promise.all([
      sql`select s.id, s.show_id, s.status, s.starts_at, s.resale_enabled, e.id as event_pk
          from shows s join events e on e.id = s.event_id
          where e.partner_id = ${m.partnerId} and e.external_reference_id = ${m.ref}`,
      sql`select t.id, t.ticket_id, t.status, t.admitted_at, t.show_pk, t.ticket_option_id, t.price_type_id, t.order_id
          from tickets t where t.partner_id = ${m.partnerId} and t.ticket_id = any(${m.ticketIds})`,
    ]);
    const showPks = shows.map((s) => s.id as string);
    const eventPks = shows.map((s) => s.event_pk as string);
    const [listed, rules, payout] = await Promise.all([
      sql`select i.ticket_pk, l.id, l.status, i.open from listing_items i join listings l on l.id = i.listing_id
          where i.partner_id = ${m.partnerId} and i.ticket_pk = any(${tickets.map((t) => t.id as string)})`,
      sql`select * from resale_rules where event_pk = any(${eventPks})`,
      sql`select status from seller_accounts where partner_id = ${m.partnerId} and seller_email = ${SELLER}`,
      // Ticket protection and the sell banners (with the shows' primary inventory) are in the answer too.
      sql`select * from protection_settings where partner_id = ${m.partnerId}`,
      sql`select * from banners where partner_id = ${m.partnerId} and active and placement in ('SELL', 'BOTH')
          and (event_pk is null or event_pk = any(${eventPks})) and (show_pk is null or show_pk = any(${showPks}))`,
      sql`select * from inventories where show_pk = any(${showPks}) and ticket_option_id = '' and price_type_id = ''`,
    ]);
    const ms = performance.now() - t0;
    if (tickets.length !== TICKETS || listed.length !== TICKETS / 2) throw new Error('baseline read the wrong rows');
    void rules;
    void payout;
    return ms;
  };
  for (let i = 0; i < 3; i++) {
    await project();
    await raw();
  }
  const p: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    p.push(await project());
    b.push(await raw());
  }
  return { value: median(p), baseline: median(b), unit: 'ms', kind: 'time' };
}
