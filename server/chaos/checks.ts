import type { Sql } from 'postgres';
import { sleep } from './report';
import type { Writes } from './traffic';

/**
 * The invariants checked in the database after the faults: every write answered 2xx is there (a batch
 * POST /v1/tickets accepted, a ticket POST /v1/sync/tickets imported, a buy intention held), and no listing
 * is held or sold by two buyers.
 */

export interface Durability {
  total: number;
  missing: string[];
}

/** The writes answered 2xx between `from` and `to` that the database does not have. */
export async function durability(sql: Sql, writes: Writes, from = 0, to = Infinity): Promise<Durability> {
  const inWindow = <T extends { at: number }>(list: T[]) => list.filter((w) => w.at >= from && w.at <= to);
  const batches = inWindow(writes.batches);
  const synced = inWindow(writes.synced);
  const holds = inWindow(writes.holds);
  const missing: string[] = [];
  if (batches.length) {
    const ids = batches.map((b) => b.batchId);
    const found = new Set(
      (await sql<{ id: string }[]>`select id from ticket_batches where id = any(${ids})`).map((r) => r.id),
    );
    missing.push(...ids.filter((id) => !found.has(id)).map((id) => `batch ${id}`));
  }
  if (synced.length) {
    const keys = synced.map((s) => `${s.partnerId}|${s.ticketId}`);
    const rows = await sql<{ key: string }[]>`
      select partner_id || '|' || ticket_id as key from tickets where partner_id || '|' || ticket_id = any(${keys})`;
    const found = new Set(rows.map((r) => r.key));
    missing.push(...keys.filter((k) => !found.has(k)).map((k) => `synced ticket ${k}`));
  }
  if (holds.length) {
    const ids = holds.map((h) => h.intentionId);
    const found = new Set(
      (await sql<{ id: string }[]>`select id from buy_intentions where id = any(${ids})`).map((r) => r.id),
    );
    missing.push(...ids.filter((id) => !found.has(id)).map((id) => `buy intention ${id}`));
  }
  return { total: batches.length + synced.length + holds.length, missing };
}

/**
 * Waits (up to `waitMs`) for every accepted batch to be imported, then answers the accepted tickets that are
 * not in `tickets`, and how many batches are still unfinished.
 */
export async function importedBatches(sql: Sql, writes: Writes, waitMs: number) {
  const ids = writes.batches.map((b) => b.batchId);
  const deadline = Date.now() + waitMs;
  let unfinished = 0;
  for (;;) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from ticket_batches where id = any(${ids}) and status <> 'completed'`;
    unfinished = row.n;
    if (unfinished === 0 || Date.now() > deadline) break;
    await sleep(1000);
  }
  const keys = writes.batches.flatMap((b) => b.ticketIds.map((t) => `${b.partnerId}|${t}`));
  const rows = await sql<{ key: string }[]>`
    select partner_id || '|' || ticket_id as key from tickets where partner_id || '|' || ticket_id = any(${keys})`;
  const found = new Set(rows.map((r) => r.key));
  return { tickets: keys.length, missing: keys.filter((k) => !found.has(k)), unfinished };
}

/** Listings held or sold to more than one buyer: in the database, and in the answers (two 200s for one listing). */
export async function doubleSales(sql: Sql, partnerIds: string[], writes: Writes): Promise<string[]> {
  const rows = await sql<{ listing: string; n: number }[]>`
    select l as listing, count(*)::int as n from buy_intentions, unnest(listing_ids) as l
    where partner_id = any(${partnerIds}) and status in ('PENDING', 'COMPLETED')
    group by l having count(*) > 1`;
  const found = rows.map((r) => `listing ${r.listing} held by ${r.n} live buy intentions`);
  const answered = new Map<string, number>();
  for (const h of writes.holds) answered.set(h.listingId, (answered.get(h.listingId) ?? 0) + 1);
  for (const [listing, n] of answered) if (n > 1) found.push(`listing ${listing} answered 200 to ${n} buyers`);
  return found;
}
