import { eq } from 'drizzle-orm';
import { POST as createEvent } from '@/app/v1/events/route';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { getDb, getSql } from '@/db';
import { shows, ticketBatches } from '@/db/schema';
import { startJobs, stopJobs } from '@/server/jobs/client';
import { createPartnerWithKeys } from '@/server/modules/partners/service';
import type { BenchResult } from './run';

function request(path: string, key: string, body: unknown): Request {
  return new Request(`http://bench.local${path}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function catalogue() {
  const { partner, apiKey } = await createPartnerWithKeys(`Bench tickets ${Date.now()}`);
  const ref = `BENCH-${Date.now()}`;
  const res = await createEvent(
    request('/v1/events', apiKey, {
      title: 'Bench',
      description: 'd',
      externalReferenceId: ref,
      location: {},
      configuration: {},
      shows: [
        {
          title: 'S',
          date: '2027-01-01T20:00:00Z',
          showId: `${ref}-S`,
          images: [],
          configuration: {},
          ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency: 'USD', price: 50 }],
        },
      ],
    }),
  );
  if (res.status !== 200) throw new Error(`event setup failed: ${await res.text()}`);
  const [show] = await getDb()
    .select()
    .from(shows)
    .where(eq(shows.showId, `${ref}-S`));
  return { partnerId: partner.id, apiKey, ref, showId: `${ref}-S`, showPk: show.id, eventPk: show.eventId };
}

const ticketBody = (c: { ref: string; showId: string }, id: string) => ({
  externalReferenceEventId: c.ref,
  showId: c.showId,
  buyer: `fan-${id}@example.com`,
  ticketId: id,
  ticketAccess: { type: 'URL', locator: `https://qr.example/${id}.png` },
  ticketOptionId: 'GA',
  price: 50,
});

/** The raw baseline: the same rows through postgres.js, one multi-row INSERT per 1,000. */
async function rawInsert(c: Awaited<ReturnType<typeof catalogue>>, prefix: string, n: number): Promise<number> {
  const sql = getSql();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) => {
      const id = `${prefix}${i + k}`;
      const b = ticketBody(c, id);
      return {
        id: `tkt_raw_${id}`,
        partner_id: c.partnerId,
        ticket_id: id,
        event_pk: c.eventPk,
        show_pk: c.showPk,
        ticket_option_id: 'GA',
        currency: 'USD',
        price_minor: 5000,
        buyer: JSON.stringify(b.buyer),
        buyer_email: b.buyer,
        data: JSON.stringify({ ticketAccess: b.ticketAccess }),
      };
    });
    await sql`insert into tickets ${sql(rows)}`;
  }
  return performance.now() - t0;
}

/** 50,000 tickets in 10 POST /v1/tickets requests, until every batch is imported, against the raw insert. */
export async function runImport(): Promise<BenchResult> {
  const c = await catalogue();
  const N = Number(process.env.BENCH_TICKETS ?? 50_000);
  const rawMs = await rawInsert(c, 'RAW-', N);
  // The app's own job provider: POST /v1/tickets queues its import there.
  await startJobs();
  const t0 = performance.now();
  const batchIds: string[] = [];
  for (let r = 0; r < 10; r++) {
    const body = Array.from({ length: N / 10 }, (_, k) => ticketBody(c, `API-${r}-${k}`));
    const res = await ticketsPost(request('/v1/tickets', c.apiKey, body));
    if (res.status !== 200) throw new Error(`POST /v1/tickets answered ${res.status}`);
    batchIds.push((await res.json()).data.batchId);
  }
  for (;;) {
    const rows = await getDb()
      .select({ id: ticketBatches.id, status: ticketBatches.status, imported: ticketBatches.imported })
      .from(ticketBatches)
      .where(eq(ticketBatches.partnerId, c.partnerId));
    if (rows.length === 10 && rows.every((b) => b.status === 'completed')) {
      const imported = rows.reduce((a, b) => a + b.imported, 0);
      if (imported !== N) throw new Error(`imported ${imported} of ${N}`);
      break;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  const ms = performance.now() - t0;
  await stopJobs();
  return { value: N / (ms / 1000), unit: 'tickets/s', baseline: N / (rawMs / 1000), kind: 'rate' };
}

/** Median latency of POST /v1/sync/tickets with 500 tickets, against the raw insert of 500 rows. */
export async function runSync(): Promise<BenchResult> {
  const c = await catalogue();
  const rounds = 7;
  const raw: number[] = [];
  const api: number[] = [];
  for (let r = 0; r < rounds; r++) {
    raw.push(await rawInsert(c, `RAWS-${r}-`, 500));
    const body = Array.from({ length: 500 }, (_, k) => ticketBody(c, `SYNC-${r}-${k}`));
    const t0 = performance.now();
    const res = await syncPost(request('/v1/sync/tickets', c.apiKey, body));
    api.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`POST /v1/sync/tickets answered ${res.status}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { value: median(api), unit: 'ms', baseline: median(raw), kind: 'time' };
}
