import { GET as accessLayerGet } from '@/app/v1/wrapper/accesslayer/route';
import { getDb, getSql } from '@/db';
import { CLIENT_ADDRESS_HEADER } from '@/server/http/client-address';
import { publishableKeyOf } from '@/server/modules/partners';
import { listAll, marketWith } from './market';
import type { BenchResult } from './run';
import { machine } from './servers';

const LISTINGS = 2000;
const CALLS = 4000;
const IN_FLIGHT = 100;
const REPS = 3;
const SITE = 'https://shop.bench.example';

/** Runs `call` CALLS times, IN_FLIGHT at a time; answers the calls a second. */
async function rate(call: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CALLS) await call(next++);
    }),
  );
  return CALLS / ((performance.now() - t0) / 1000);
}

/**
 * widget-rush: a sold-out show's rush on a partner's event page, every fan's widget reading the
 * show's buy access layer with the partner's publishable key, each from its own address. Calls a second
 * through the route handler in process (key check, origin, the in-memory limits, the answer shared for a
 * second, envelope, CORS), 100 in flight, against the raw reads one answer needs (the event and show, the
 * on-sale count and from-price, the five cheapest offers, banners, primary inventory, protection, seating)
 * through postgres.js at the same concurrency: what each call would cost if every fan's call read. Best of 3.
 * Checks that no call wrote a rate-limit row.
 */
export async function run(): Promise<BenchResult> {
  const m = await marketWith(LISTINGS);
  await listAll(m.partnerId);
  const pk = (await publishableKeyOf(m.partnerId, getDb()))!.key;
  const sql = getSql();
  const [{ eventPk, showPk }] = await sql<{ eventPk: string; showPk: string }[]>`
    select e.id as "eventPk", s.id as "showPk" from events e join shows s on s.event_id = e.id
    where e.partner_id = ${m.partnerId} and e.external_reference_id = ${m.ref}`;
  const url = `http://encore.bench/v1/wrapper/accesslayer?type=buy&eventId=${m.ref}&showId=S1&lang=es`;
  console.log(
    `# widget-rush: ${CALLS} widget reads (publishable key, one address each) of one show with ${LISTINGS} offers, ` +
      `route handler in process, ${IN_FLIGHT} in flight; baseline = the raw reads of one answer per call through postgres.js; best of ${REPS}; ${machine()}`,
  );
  const project = (i: number) =>
    accessLayerGet(
      new Request(url, {
        headers: {
          authorization: `Bearer ${pk}`,
          origin: SITE,
          [CLIENT_ADDRESS_HEADER]: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
      }),
    ).then(async (res) => {
      const body = (await res.json()) as { data?: { components: { type: string }[] } };
      if (res.status !== 200 || !body.data?.components.some((c) => c.type === 'list'))
        throw new Error(`widget-rush: unexpected answer ${res.status}`);
    });
  const raw = async () => {
    const [show] = await Promise.all([
      sql`select s.*, e.title, e.configuration from shows s join events e on e.id = s.event_id
          where e.partner_id = ${m.partnerId} and e.external_reference_id = ${m.ref}`,
      sql`select count(*), min(price_minor) from listings where show_pk = ${showPk} and status = 'ACTIVE'`,
      sql`select l.id, l.price_minor, l.currency, l.ticket_count, i.seating from listings l
          join listing_items i on i.listing_id = l.id
          where l.show_pk = ${showPk} and l.status = 'ACTIVE' order by l.price_minor limit 5`,
      sql`select * from banners where partner_id = ${m.partnerId} and active and placement in ('BUY', 'BOTH')
          and (event_pk is null or event_pk = ${eventPk}) and (show_pk is null or show_pk = ${showPk})`,
      sql`select * from inventories where show_pk = ${showPk}`,
      sql`select * from protection_settings where partner_id = ${m.partnerId}`,
      sql`select seating from events where id = ${eventPk}`,
    ]);
    if (show.length !== 1) throw new Error('baseline read the wrong rows');
  };
  await rate(project);
  await rate(raw);
  let best = { value: 0, baseline: 0 };
  for (let i = 0; i < REPS; i++) {
    best = { value: Math.max(best.value, await rate(project)), baseline: Math.max(best.baseline, await rate(raw)) };
  }
  const [{ rows }] = await sql<{ rows: number }[]>`
    select count(*)::int as rows from rate_limit_windows where key like 'publishable-key%'`;
  if (rows !== 0) throw new Error(`widget-rush: ${rows} rate-limit rows written`);
  return { ...best, unit: 'calls/s', kind: 'rate' };
}
