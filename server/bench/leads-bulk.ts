import { POST as bulkPost } from '@/app/v1/marketdata/ticket-leads/bulk/route';
import { getSql } from '@/db';
import { apiRequest } from '@/server/testing/fixtures';
import { marketWith } from './market';
import type { BenchResult } from './run';
import { machine } from './servers';

const PER_REQUEST = 1000;
const REQUESTS = 20;
const REPS = 3;
const TYPES = ['TICKET_HOLDER', 'ABANDONED_CART', 'VIRTUAL_QUEUE', 'WISHLIST'] as const;

/**
 * leads-bulk: 20 `POST /v1/marketdata/ticket-leads/bulk` of 1,000 mixed leads each through the route
 * handler in process (key check, per-lead validation, event and show lookup, one upsert), one after
 * another; against a raw multi-row upsert of the same rows through postgres.js (one statement per
 * 1,000, the rows already built). Leads per second, best of 3 each; every rep writes new buyers.
 */
export async function run(): Promise<BenchResult> {
  const m = await marketWith(1);
  const sql = getSql();
  const lead = (rep: number, r: number, i: number) => {
    const type = TYPES[i % 4];
    return {
      type,
      externalReferenceEventId: m.ref,
      showId: 'S1',
      buyer: { email: `fan${rep}-${r}-${i}@bench.test`, fullName: `Fan ${i}` },
      ticketId: `B-${i}`,
      price: 40,
      currency: 'EUR',
      ticketOptionId: 'GA',
      purchaseDate: '2026-11-20T10:00:00Z',
      tags: ['bench'],
    };
  };
  console.log(
    `# leads-bulk: ${REQUESTS} requests of ${PER_REQUEST} mixed leads, route handler in process; best of ${REPS}; ${machine()}`,
  );
  const project: number[] = [];
  const baseline: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const bodies = Array.from({ length: REQUESTS }, (_, r) =>
      Array.from({ length: PER_REQUEST }, (_, i) => lead(rep, r, i)),
    );
    const requests = bodies.map((body) => apiRequest('/v1/marketdata/ticket-leads/bulk', { key: m.key, body }));
    let t0 = performance.now();
    for (const req of requests) {
      const res = await bulkPost(req);
      if (res.status !== 200) throw new Error(`leads-bulk: ${res.status} ${await res.text()}`);
    }
    project.push((REQUESTS * PER_REQUEST) / ((performance.now() - t0) / 1000));

    const rows = bodies.map((body) =>
      body.map((l, i) => ({
        id: `lead_bench_${rep}_${l.buyer.email}`,
        type: l.type,
        buyer_key: `email:base-${l.buyer.email}`,
        buyer_email: l.buyer.email,
        buyer_full_name: l.buyer.fullName,
        ticket_id: l.ticketId,
        price: 4000 + (i % 2),
        currency: l.currency,
        ticket_option_id: l.ticketOptionId,
        purchase_date: l.purchaseDate,
      })),
    );
    t0 = performance.now();
    for (const batch of rows) {
      await sql`
        insert into leads (id, partner_id, type, external_reference_event_id, show_id, buyer_key, buyer_email,
          buyer_full_name, ticket_id, price, currency, ticket_option_id, purchase_date, tags)
        select id, ${m.partnerId}, type::lead_type, ${m.ref}, 'S1', buyer_key, buyer_email, buyer_full_name, ticket_id,
          price, currency, ticket_option_id, purchase_date, '{bench}'
        from json_to_recordset(${JSON.stringify(batch)}::json) as v(id text, type text, buyer_key text,
          buyer_email text, buyer_full_name text, ticket_id text, price bigint, currency text, ticket_option_id text,
          purchase_date timestamptz)
        on conflict (partner_id, external_reference_event_id, show_id, buyer_key) do update set
          type = excluded.type, price = excluded.price, updated_at = now()`;
    }
    baseline.push((REQUESTS * PER_REQUEST) / ((performance.now() - t0) / 1000));
  }
  return { value: Math.max(...project), baseline: Math.max(...baseline), unit: 'leads/s', kind: 'rate' };
}
