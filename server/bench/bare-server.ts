/**
 * The bare baseline of the HTTP benches, run by servers.ts as its own process: a `node:http`
 * server that reads a JSON array of tickets, parses it, inserts the rows through postgres.js and
 * answers each ticket's id. The insert is the app's (one statement per 1,000 rows, the rows as one JSON
 * parameter expanded by json_to_recordset), which is also the fastest bare way measured here (a
 * multi-row VALUES insert with a bind parameter per value took ~25% longer), two statements at once as
 * the app imports two batches at once. No auth, validation, catalogue lookup, envelope or job queue:
 * the fastest a server takes the same requests into the same table.
 *
 * With `statements` in its config (onsale-peak), it answers every GET with the buy page's reads instead:
 * it sends the same statements with the same parameters the page's data functions sent when the bench
 * recorded them, one after the other, and answers a plain HTML list of the first 50 rows of the largest
 * result. No Next.js, React, session, filters or fees: the fastest a server answers the same reads.
 *
 * Env: DATABASE_URL, BARE_PORT, BARE_CONFIG = {"partnerId","eventPk","showPk"} (the rows' keys) and
 * optionally "statements": [{ "text", "params" }].
 */
import http from 'node:http';
import postgres from 'postgres';
import { z } from 'zod';

const config = z
  .object({
    partnerId: z.string(),
    eventPk: z.string(),
    showPk: z.string(),
    statements: z.array(z.object({ text: z.string(), params: z.array(z.unknown()) })).optional(),
  })
  .parse(JSON.parse(process.env.BARE_CONFIG ?? '{}'));
// The app's pool size and settings (db/index.ts).
const sql = postgres(process.env.DATABASE_URL ?? '', {
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  onnotice: () => {},
  connection: { jit: 'off' },
  prepare: false,
});

/** The buy page's reads, as recorded from the app; the first 50 rows of the largest answer as HTML. */
async function buyPageReads(): Promise<string> {
  let largest: Record<string, unknown>[] = [];
  for (const s of config.statements ?? []) {
    const rows = await sql.unsafe(s.text, s.params as never[]);
    if (rows.length > largest.length) largest = rows;
  }
  const items = largest.slice(0, 50).map((r) => `<li>${String(r.id ?? Object.values(r)[0])}</li>`);
  return `<!doctype html><html><body><ul>${items.join('')}</ul></body></html>`;
}

interface Ticket {
  ticketId: string;
  buyer: string;
  ticketAccess: unknown;
  ticketOptionId: string;
}

/** Statements in flight at once: the app imports batches with 2 jobs at once (tickets/jobs.ts). */
const PARALLEL = 2;

async function insertChunk(tickets: Ticket[]): Promise<{ ticketId: string; id: string }[]> {
  const rows = tickets.map((t) => ({
    id: `tkt_raw_${t.ticketId}`,
    partner_id: config.partnerId,
    ticket_id: t.ticketId,
    event_pk: config.eventPk,
    show_pk: config.showPk,
    ticket_option_id: t.ticketOptionId,
    currency: 'USD',
    price_minor: 5000,
    buyer: t.buyer,
    buyer_email: t.buyer,
    data: { ticketAccess: t.ticketAccess },
  }));
  // ::text::json: the parameter goes in as the text it is (postgres.js would JSON-encode it again).
  await sql`
      insert into tickets (id, partner_id, ticket_id, event_pk, show_pk, ticket_option_id, currency, price_minor,
        buyer, buyer_email, data)
      select r.id, r.partner_id, r.ticket_id, r.event_pk, r.show_pk, r.ticket_option_id, r.currency, r.price_minor,
        r.buyer, r.buyer_email, r.data
      from json_to_recordset(${JSON.stringify(rows)}::text::json) as r(id text, partner_id text, ticket_id text,
        event_pk text, show_pk text, ticket_option_id text, currency text, price_minor bigint, buyer jsonb,
        buyer_email text, data jsonb)`;
  return rows.map((r) => ({ ticketId: r.ticket_id, id: r.id }));
}

/** Chunks of 1,000, PARALLEL at a time; answers the ids in the order given. */
async function insert(tickets: Ticket[]): Promise<{ ticketId: string; id: string }[]> {
  const chunks: Ticket[][] = [];
  for (let i = 0; i < tickets.length; i += 1000) chunks.push(tickets.slice(i, i + 1000));
  const out: { ticketId: string; id: string }[][] = new Array(chunks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < chunks.length) {
        const k = next++;
        out[k] = await insertChunk(chunks[k]);
      }
    }),
  );
  return out.flat();
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/ready') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'GET' && config.statements) {
    buyPageReads().then(
      (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
      (err: Error) => res.writeHead(500).end(err.message),
    );
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const tickets = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Ticket[];
    insert(tickets).then(
      (written) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tickets: written }));
      },
      (err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.message }));
      },
    );
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.BARE_PORT), '127.0.0.1');

process.once('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 2 }).then(() => process.exit(0));
});
