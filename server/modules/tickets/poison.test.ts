import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as createEvent } from '@/app/v1/events/route';
import { GET as getBatchGet } from '@/app/v1/tickets/batches/[batchId]/route';
import { GET as secureUrl } from '@/app/v1/tickets/[ticketId]/url/route';
import { getDb } from '@/db';
import { tickets } from '@/db/schema';
import { findUnstorable, MAX_JSON_DEPTH } from '@/server/lib/storable';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { admit, deleteTicket, json, putTicket, queueTickets, syncTickets } from '@/server/testing/ticket-api';
import { acceptTickets, getBatch, processBatch, syncTickets as syncService } from './ticket-import';
import { importTicketBatchJob } from './jobs';
import type { TicketCreate } from './schemas';

let seq = 0;
async function setup() {
  const partner = await makePartner('Poison');
  const ref = `PO-${Date.now()}-${++seq}`;
  await pushEvent(partner.apiKey, ref, [testShow('1')]);
  return { ...partner, ref };
}

const ticket = (ref: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: ref,
  showId: '1',
  buyer: 'fan@example.com',
  ticketId,
  ticketAccess: { type: 'URL', locator: `https://qr.example/${ticketId}.png`, status: 'LOCKED' },
  ticketOptionId: 'GA',
  ...extra,
});

const NUL = '\u0000';

describe('findUnstorable', () => {
  it('finds NUL characters, unpaired surrogates (in values and field names) and hostile nesting, with paths', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(
      findUnstorable({
        ok: 'fine 🎫 ünï',
        a: [`x${NUL}`],
        b: { c: '\uD800 alone', d: '\uDC00' },
        [`k${NUL}`]: 1,
        deep,
      }),
    ).toEqual([
      { path: ['a', 0], message: 'contains a NUL character (\\u0000), which cannot be stored' },
      { path: ['b', 'c'], message: 'contains an unpaired UTF-16 surrogate, which is not valid Unicode' },
      { path: ['b', 'd'], message: 'contains an unpaired UTF-16 surrogate, which is not valid Unicode' },
      {
        path: [`k${NUL}`],
        message: 'is a field name that contains a NUL character (\\u0000), which cannot be stored',
      },
      {
        path: ['deep', ...Array(MAX_JSON_DEPTH - 1).fill(0)],
        message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      },
    ]);
    expect(findUnstorable({ emoji: '🎫', nested: [[[{ a: 'b' }]]] })).toEqual([]);
  });
});

describe('the partner API refuses what PostgreSQL cannot store', () => {
  it('a NUL in a path parameter answers 400 naming the parameter, on every ticket and event path', async () => {
    const s = await setup();
    const ticketId = `x${NUL}y`;
    for (const res of [
      await putTicket(s.apiKey, ticketId, { buyer: 'a@b.co' }),
      await deleteTicket(s.apiKey, ticketId),
      await admit(s.apiKey, ticketId),
      await json(await secureUrl(apiRequest('/v1/tickets/x%00y/url', { key: s.apiKey }), routeParams({ ticketId }))),
      await json(
        await getBatchGet(apiRequest('/v1/tickets/batches/%00', { key: s.apiKey }), routeParams({ batchId: NUL })),
      ),
      await json(
        await cancel(
          apiRequest('/v1/events/%00/cancellation', { method: 'POST', key: s.apiKey }),
          routeParams({ externalReferenceId: NUL }),
        ),
      ),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
      expect(res.body.errors.details[0]).toMatchObject({ in: 'path', message: expect.stringContaining('NUL') });
    }
    // A NUL in the query string too.
    const q = await cancel(
      apiRequest(`/v1/events/${s.ref}/cancellation?showId=%00`, { method: 'POST', key: s.apiKey }),
      routeParams({ externalReferenceId: s.ref }),
    );
    expect((await q.json()).errors.details[0]).toMatchObject({ path: 'showId', in: 'query' });
  });

  it('a NUL in an event field, a ticket locator or props answers 400 naming the field; nothing is stored', async () => {
    const s = await setup();
    const ev = await json(
      await createEvent(
        apiRequest('/v1/events', {
          key: s.apiKey,
          body: {
            title: `Bad${NUL}`,
            description: 'd',
            externalReferenceId: `E-${seq}`,
            location: {},
            configuration: {},
            shows: [testShow('1')],
          },
        }),
      ),
    );
    expect(ev.status).toBe(400);
    expect(ev.body.errors.details).toEqual([
      { path: 'title', message: 'contains a NUL character (\\u0000), which cannot be stored', in: 'body' },
    ]);

    const list = [
      ticket(s.ref, 'OK1'),
      ticket(s.ref, 'BAD1', { ticketAccess: { type: 'URL', locator: `a${NUL}b` } }),
      ticket(s.ref, 'BAD2', { props: { note: `x${NUL}` } }),
      ticket(s.ref, 'BAD3', { props: { seat: '\uD83C' } }),
    ];
    for (const res of [await queueTickets(s.apiKey, list), await syncTickets(s.apiKey, list)]) {
      expect(res.status).toBe(400);
      expect(res.body.errors.details.map((d: { path: string }) => d.path)).toEqual([
        '[1].ticketAccess.locator',
        '[2].props.note',
        '[3].props.seat',
      ]);
      expect(res.body.errors.message).toBe(
        'Invalid request body: [1].ticketAccess.locator contains a NUL character (\\u0000), which cannot be stored (and 2 more problems)',
      );
    }
    const stored = await getDb().select().from(tickets).where(eq(tickets.partnerId, s.partner.id));
    expect(stored).toEqual([]);
  });

  it('ids longer than the index can hold, and nesting deeper than 32 levels, answer 400 naming the field', async () => {
    const s = await setup();
    const long = 'x'.repeat(10_000);
    const ev = await json(
      await createEvent(
        apiRequest('/v1/events', {
          key: s.apiKey,
          body: {
            title: 't',
            description: 'd',
            externalReferenceId: `L-${seq}`,
            location: {},
            configuration: {},
            shows: [testShow(long)],
          },
        }),
      ),
    );
    expect(ev.status).toBe(400);
    expect(ev.body.errors.details).toEqual([
      { path: 'shows[0].showId', message: 'must be at most 200 characters', in: 'body' },
    ]);

    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const tooDeep = await syncTickets(s.apiKey, [ticket(s.ref, 'D1', { props: deep })]);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors.details).toEqual([
      {
        path: `[0].props${'.d'.repeat(MAX_JSON_DEPTH - 2)}`,
        message: 'is nested more than 32 levels deep',
        in: 'body',
      },
    ]);
    const tooLong = await syncTickets(s.apiKey, [
      ticket(s.ref, long),
      ticket(s.ref, 'D3', { buyer: `${'a'.repeat(5000)}@example.com` }),
    ]);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.details.map((d: { path: string }) => d.path)).toEqual(['[0].ticketId', '[1].buyer']);
  });
});

describe('an import the database still refuses', () => {
  // Batches stored before validation refused NUL (or anything validation may still miss) must not stay
  // stuck: the refused ticket is reported and every other ticket is imported.
  it('a stored batch with poisoned tickets imports every other ticket and reports those', async () => {
    const s = await setup();
    const list = Array.from({ length: 2200 }, (_, i) => ticket(s.ref, `P${i}`)) as TicketCreate[];
    const accepted = await acceptTickets(s.partner.id, list, getDb());
    // What POST /v1/tickets stored before validation refused such values.
    list[5] = ticket(s.ref, 'P5', { ticketAccess: { type: 'URL', locator: `a${NUL}b` } }) as TicketCreate;
    list[1500] = ticket(s.ref, `P${NUL}1500`) as TicketCreate;
    list[2100] = ticket(s.ref, 'P2100', { props: { seat: '\uDC00' } }) as TicketCreate;
    await getDb().execute(
      sql`update ticket_batches set payload = ${JSON.stringify(list)}::json where id = ${accepted.batchId}`,
    );
    await processBatch(accepted.batchId, getDb());

    const batch = await getBatch(s.partner.id, accepted.batchId, getDb());
    expect(batch).toMatchObject({ status: 'completed', total: 2200, imported: 2197, failed: 3, pending: 0 });
    expect(batch.errors.map((e) => e.ticketId)).toEqual(['P5', 'P\uFFFD1500', 'P2100']);
    for (const e of batch.errors) expect(e.errors[0].message).toMatch(/^could not be stored: /);
    const [{ count }] = await getDb()
      .select({ count: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.partnerId, s.partner.id), eq(tickets.ticketId, 'P2199')));
    expect(count).toBe(accepted.tickets[2199].id);
    const all = await getDb().select({ id: tickets.id }).from(tickets).where(eq(tickets.partnerId, s.partner.id));
    expect(all).toHaveLength(2197);
  });

  it('the synchronous import reports the refused ticket and imports the others', async () => {
    const s = await setup();
    const res = await syncService(
      s.partner.id,
      [ticket(s.ref, 'S1'), ticket(s.ref, 'S2', { props: { x: `${NUL}` } }), ticket(s.ref, 'S3')] as TicketCreate[],
      getDb(),
    );
    expect(res.imported).toBe(2);
    expect(res.tickets.map((t) => t.status)).toEqual(['imported', 'failed', 'imported']);
    expect(res.tickets[1].errors?.[0].message).toMatch(/^could not be stored: /);
  });
});

describe('a batch whose import keeps failing', () => {
  it('fails on the early attempts and, on the last, records the tickets left as failed and completes', async () => {
    const s = await setup();
    const accepted = await acceptTickets(
      s.partner.id,
      [ticket(s.ref, 'A1'), ticket(s.ref, 'A2')] as TicketCreate[],
      getDb(),
    );
    // A payload no retry can read (not a list of tickets).
    await getDb().execute(
      sql`update ticket_batches set payload = '{"broken": true}'::json where id = ${accepted.batchId}`,
    );
    await expect(
      importTicketBatchJob.run({ batchId: accepted.batchId }, { provider: 'local', attempt: 1 }),
    ).rejects.toThrow();
    expect((await getBatch(s.partner.id, accepted.batchId, getDb())).status).not.toBe('completed');

    await importTicketBatchJob.run({ batchId: accepted.batchId }, { provider: 'local', attempt: 6 });
    const batch = await getBatch(s.partner.id, accepted.batchId, getDb());
    expect(batch).toMatchObject({ status: 'completed', total: 2, imported: 0, failed: 2, pending: 0 });
    expect(batch.errors).toHaveLength(2);
    expect(batch.errors[0].errors[0].message).toBe('not imported: the import failed 6 times; please send it again');
  });
});
