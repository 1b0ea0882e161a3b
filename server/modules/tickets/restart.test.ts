import { spawn } from 'node:child_process';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { shows, ticketBatches, tickets } from '@/db/schema';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import type { TicketCreate } from './schemas';
import { acceptTickets } from './ticket-import';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** An app instance reduced to its job runner (one process, so SIGKILL kills it as a crash would). */
function startWorker(batchId: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/testing/worker-child.ts', process.env.DATABASE_URL!],
    {
      stdio: ['pipe', 'ignore', 'inherit'],
      env: { ...process.env, WORKER_IMPORT_BATCH: batchId },
    },
  );
  cleanups.push(async () => child.kill('SIGKILL'));
  return child;
}

const batchRow = async (id: string) => (await getDb().select().from(ticketBatches).where(eq(ticketBatches.id, id)))[0];

describe('a queued ticket batch across an app restart', () => {
  it('resumes where the killed instance stopped: every ticket imported once, with the id answered', async () => {
    const { partner, apiKey } = await makePartner('Restart');
    const refA = `RS-A-${Date.now()}`;
    const refB = `RS-B-${Date.now()}`;
    await pushEvent(apiKey, refA, [testShow(`${refA}-S`)]);
    await pushEvent(apiKey, refB, [testShow(`${refB}-S`)]);
    // 3,000 tickets of event A, then 7,000 of event B: the import takes them a thousand per transaction.
    const list: TicketCreate[] = Array.from({ length: 10_000 }, (_, i) => ({
      externalReferenceEventId: i < 3000 ? refA : refB,
      buyer: `fan${i}@example.com`,
      ticketId: `R${i}`,
      ticketAccess: { type: 'OTHER', locator: `CODE-${i}` },
      ticketOptionId: 'GA',
    }));
    const accepted = await acceptTickets(partner.id, list, getDb());

    // Hold event B's show so the first instance stops, mid-import, in the transaction of the 4th chunk.
    const sql = getSql();
    const [showB] = await getDb()
      .select({ pk: shows.id })
      .from(shows)
      .where(eq(shows.showId, `${refB}-S`));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const holding = sql.begin(async (tx) => {
      await tx`select id from shows where id = ${showB.pk} for update`;
      await released;
    });
    cleanups.push(async () => {
      release();
      await holding;
    });

    const first = startWorker(accepted.batchId);
    await expect.poll(async () => (await batchRow(accepted.batchId)).processed, { timeout: 30_000 }).toBe(3000);
    // It is waiting for the lock, inside its next chunk's transaction: killed right there.
    await expect
      .poll(
        async () =>
          (
            await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%from "shows"%'`
          )[0].n,
        { timeout: 10_000 },
      )
      .toBe(1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    release();
    await holding;

    const mid = await batchRow(accepted.batchId);
    expect(mid).toMatchObject({ status: 'processing', processed: 3000, imported: 3000, failed: 0 });
    const countOf = async () =>
      (await getDb().select({ n: count() }).from(tickets).where(eq(tickets.partnerId, partner.id)))[0].n;
    expect(await countOf()).toBe(3000);

    startWorker(accepted.batchId); // a new app instance picks the batch up again
    await expect.poll(async () => (await batchRow(accepted.batchId)).status, { timeout: 60_000 }).toBe('completed');
    const done = await batchRow(accepted.batchId);
    expect(done).toMatchObject({ processed: 10_000, imported: 10_000, failed: 0, payload: null });
    expect(await countOf()).toBe(10_000);
    const rows = await getDb()
      .select({ id: tickets.id, ticketId: tickets.ticketId })
      .from(tickets)
      .where(eq(tickets.partnerId, partner.id));
    const answered = new Map(accepted.tickets.map((t) => [t.ticketId, t.id]));
    expect(rows.every((r) => answered.get(r.ticketId) === r.id)).toBe(true);
  }, 120_000);
});
