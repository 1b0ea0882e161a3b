import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { ticketBatchErrors, ticketBatches } from '@/db/schema/tickets';
import { isTransient, notFound, pgErrorOf } from '@/server/lib/errors';
import { errorFields, log } from '@/server/lib/log';
import { storableText } from '@/server/lib/storable';
import { newId } from '@/server/lib/ids';
import { toMinorUnits } from '@/server/lib/money';
import { type Catalogue, catalogueFor, type ShowRef } from '@/server/modules/catalog';
import type { TicketCreate } from './schemas';

export interface TicketError {
  path: string;
  message: string;
}
export interface ImportResult {
  ticketId: string;
  id: string;
  status: 'imported' | 'failed';
  errors?: TicketError[];
}

const CHUNK = 1000;

/** Our ids and statuses for these partner ticketIds, where the tickets exist (one query, one parameter). */
async function existingTickets(db: DbOrTx, partnerId: string, ticketIds: string[]) {
  const map = new Map<string, { id: string; status: string }>();
  if (!ticketIds.length) return map;
  const rows = await db.execute<{ ticket_id: string; id: string; status: string }>(sql`
    select ticket_id, id, status from tickets
    where partner_id = ${partnerId} and ticket_id in (select json_array_elements_text(${JSON.stringify(ticketIds)}::json))`);
  for (const r of rows) map.set(r.ticket_id, { id: r.id, status: r.status });
  return map;
}

/** A tickets row as the upsert's JSON carries it (column names). */
interface TicketRow {
  id: string;
  ticket_id: string;
  event_pk: string;
  show_pk: string;
  ticket_option_id: string;
  price_type_id: string | null;
  currency: string;
  price_minor: number | null;
  buyer: unknown;
  buyer_email: string | null;
  order_id: string | null;
  data: Record<string, unknown>;
}

/** `order:<id>` among the tickets' tags (the reference product's way of naming an order), if any. */
function orderIdFromTags(tags: string[] | undefined): string | null {
  const tag = tags?.find((t) => t.startsWith('order:'));
  return tag ? tag.slice('order:'.length).trim() || null : null;
}

/**
 * Checks one ticket against the catalogue: it must name an existing event, a LIVE show of it (showId may
 * be left out when the event has one show), one of the show's ticket options and, with priceTypeId, a
 * declared combination. Answers the row to write, or every error found.
 */
function checkTicket(cat: Catalogue, t: TicketCreate, id: string): { row: TicketRow } | { errors: TicketError[] } {
  const errors: TicketError[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });
  const eventPk = cat.eventByRef.get(t.externalReferenceEventId);
  let show: ShowRef | undefined;
  if (!eventPk) fail('externalReferenceEventId', 'Event not found');
  else if (t.showId) {
    show = cat.showByKey.get(`${eventPk}|${t.showId}`);
    if (!show) fail('showId', 'does not belong to the event');
  } else {
    const list = cat.showsOfEvent.get(eventPk) ?? [];
    if (list.length === 1) show = list[0];
    else fail('showId', 'is required: the event has several shows');
  }
  if (show?.status === 'CANCELLED') fail('showId', 'the show is cancelled and takes no new tickets');
  const option = show ? cat.optionByKey.get(`${show.pk}|${t.ticketOptionId}`) : undefined;
  if (show && !option) fail('ticketOptionId', "must equal a ticketId of the show's ticket options");
  let comboPrice: number | null | undefined;
  if (show && option && t.priceTypeId) {
    if (!cat.typeSet.has(`${show.pk}|${t.priceTypeId}`))
      fail('priceTypeId', "must equal a priceTypeId of the show's price types");
    else {
      const key = `${show.pk}|${t.ticketOptionId}|${t.priceTypeId}`;
      if (!cat.comboPrice.has(key))
        fail('priceTypeId', 'this ticketOption + priceType pair is not a declared COMBINATION');
      comboPrice = cat.comboPrice.get(key);
    }
  }
  let priceMinor: number | null = comboPrice ?? option?.priceMinor ?? null;
  if (option && t.price !== undefined && t.price !== null) {
    const m = toMinorUnits(t.price, option.currency);
    if ('error' in m) fail('price', m.error);
    else priceMinor = m.minor;
  }
  if (errors.length || !eventPk || !show || !option) return { errors };
  const buyerEmail = typeof t.buyer === 'string' ? t.buyer : (t.buyer.email ?? null);
  return {
    row: {
      id,
      ticket_id: t.ticketId,
      event_pk: eventPk,
      show_pk: show.pk,
      ticket_option_id: t.ticketOptionId,
      price_type_id: t.priceTypeId ?? null,
      currency: option.currency,
      price_minor: priceMinor,
      buyer: t.buyer,
      buyer_email: buyerEmail?.toLowerCase() ?? null,
      order_id: t.orderId ?? orderIdFromTags(t.tags),
      data: {
        ticketAccess: t.ticketAccess,
        ...(t.buyerEmailExternal !== undefined ? { buyerEmailExternal: t.buyerEmailExternal } : {}),
        ...(t.primarySaleBuyerData ? { primarySaleBuyerData: t.primarySaleBuyerData } : {}),
        ...(t.nominalTicket ? { nominalTicket: t.nominalTicket } : {}),
        ...(t.props ? { props: t.props } : {}),
        ...(t.primarySalesFee ? { primarySalesFee: t.primarySalesFee } : {}),
        ...(t.tags ? { tags: t.tags } : {}),
      },
    },
  };
}

/** A re-sent ticket updates the stored one (a pushed import); an invalidated one stays as it is. */
const onConflictUpdate = sql`
      on conflict (partner_id, ticket_id) do update set
        event_pk = excluded.event_pk, show_pk = excluded.show_pk, ticket_option_id = excluded.ticket_option_id,
        price_type_id = excluded.price_type_id, currency = excluded.currency, price_minor = excluded.price_minor,
        buyer = excluded.buyer, buyer_email = excluded.buyer_email, order_id = excluded.order_id,
        data = excluded.data, updated_at = now(),
        -- A new code (a reissue, or any change of ticketAccess) is one no holder has seen yet.
        code_shown_at = case when tickets.data -> 'ticketAccess' is distinct from excluded.data -> 'ticketAccess'
          then null else tickets.code_shown_at end
      where tickets.status = 'VALID'`;

/**
 * The tickets of `rows` (about to be written) awaiting their reissue (protection, after a
 * resale) that a new `ticketAccess` reissues: stamped `reissued_at` now, and answered by id. The guard of
 * "reissued once" is this statement's, in the import's transaction: each row is locked in ticketId order
 * (as the upsert locks them) and its condition read again on the newest version once the lock is had
 * (PostgreSQL's READ COMMITTED re-check), so of two imports at once the second finds it reissued and
 * reissues nothing. (The upsert's RETURNING could not tell: comparing `reissued_at` to `now()` named two
 * transactions begun in the same microsecond both reissuers.)
 */
async function reissueTickets(db: DbOrTx, partnerId: string, rows: TicketRow[]): Promise<string[]> {
  // Few tickets await a reissue: found through their partial index, so an import of tickets that await none
  // (nearly all) pays one small read per thousand tickets, not a second pass over them.
  const awaiting = await db.execute<{ ticket_id: string }>(sql`
    select ticket_id from tickets
    where partner_id = ${partnerId} and reissue_requested_at is not null and reissued_at is null
      and ticket_id in (select jsonb_array_elements_text(${JSON.stringify(rows.map((r) => r.ticket_id))}::jsonb))`);
  if (!awaiting.length) return [];
  const due = new Set(awaiting.map((r) => r.ticket_id));
  const sent = rows.filter((r) => due.has(r.ticket_id)).map((r) => ({ ticket_id: r.ticket_id, data: r.data }));
  const reissued = await db.execute<{ id: string }>(sql`
    with due as (
      select t.id from tickets t
      join json_to_recordset(${JSON.stringify(sent)}::json) as r(ticket_id text, data jsonb) on r.ticket_id = t.ticket_id
      where t.partner_id = ${partnerId} and t.status = 'VALID'
        and t.reissue_requested_at is not null and t.reissued_at is null
        and t.data -> 'ticketAccess' is distinct from r.data -> 'ticketAccess'
      order by t.ticket_id
      for update of t
    )
    update tickets set reissued_at = now() from due where tickets.id = due.id returning tickets.id`);
  return reissued.map((r) => r.id);
}

/**
 * Inserts or updates the rows, a thousand per statement, each statement one JSON parameter expanded
 * by PostgreSQL (cheaper than thousands of bind parameters). An existing ticket keeps its id; one
 * invalidated (deleted, or its show cancelled) stays so and is not written. Rows go in ticketId order
 * so concurrent imports of overlapping tickets lock them in the same order. Answers ticketId → id of
 * every row written. `insertOnly` (sync on demand) never touches a stored ticket: the unique key
 * (partner_id, ticket_id) makes concurrent inserts of one ticket store one row.
 */
async function upsertTickets(
  db: DbOrTx,
  partnerId: string,
  rows: TicketRow[],
  batchId: string | null,
  insertOnly = false,
): Promise<Map<string, string>> {
  const written = new Map<string, string>();
  const sorted = [...rows].sort((a, b) => (a.ticket_id < b.ticket_id ? -1 : a.ticket_id > b.ticket_id ? 1 : 0));
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const rowsOfChunk = sorted.slice(i, i + CHUNK);
    const chunk = JSON.stringify(rowsOfChunk);
    const reissued = insertOnly ? [] : await reissueTickets(db, partnerId, rowsOfChunk);
    // The history rows go in the same statement (a data-modifying CTE): one INSERT … SELECT per chunk
    // keeps the import's throughput. xmax = 0 tells a fresh insert from an update of an existing row.
    const out = await db.execute<{ id: string; ticket_id: string }>(sql`
      with up as (
      insert into tickets (id, partner_id, ticket_id, event_pk, show_pk, ticket_option_id, price_type_id,
        currency, price_minor, buyer, buyer_email, order_id, data)
      select r.id, ${partnerId}, r.ticket_id, r.event_pk, r.show_pk, r.ticket_option_id, r.price_type_id,
        r.currency, r.price_minor, r.buyer, r.buyer_email, r.order_id, r.data
      from json_to_recordset(${chunk}::json) as r(id text, ticket_id text, event_pk text, show_pk text,
        ticket_option_id text, price_type_id text, currency text, price_minor bigint, buyer jsonb,
        buyer_email text, order_id text, data jsonb)
      ${insertOnly ? sql`on conflict (partner_id, ticket_id) do nothing` : onConflictUpdate}
      returning id, ticket_id, (xmax = 0) as inserted
      ), history as (
        insert into ticket_events (ticket_pk, kind, batch_id)
        select id, case when inserted then 'imported'
            when id in (select jsonb_array_elements_text(${JSON.stringify(reissued)}::jsonb)) then 'reissued'
            else 'updated' end,
          ${batchId}::text from up
      )
      select id, ticket_id from up`);
    for (const r of out) written.set(r.ticket_id, r.id);
  }
  return written;
}

/**
 * Validates tickets against the catalogue and upserts them, all in one go (re-sending a ticketId updates it, never
 * duplicates it). Per-ticket results in the order given; a failed ticket does not stop the others.
 * `serviceId` is the id to give a new ticket (answered earlier by POST /v1/tickets).
 */
async function importTogether(
  partnerId: string,
  items: { ticket: TicketCreate; serviceId?: string }[],
  db: DbOrTx,
  batchId: string | null = null,
  insertOnly = false,
): Promise<ImportResult[]> {
  const cat = await catalogueFor(db, partnerId, [...new Set(items.map((i) => i.ticket.externalReferenceEventId))]);
  const checked = items.map(({ ticket, serviceId }) => checkTicket(cat, ticket, serviceId ?? newId('tkt')));
  const written = await upsertTickets(
    db,
    partnerId,
    checked.flatMap((c) => ('row' in c ? [c.row] : [])),
    batchId,
    insertOnly,
  );
  // Failed or refused tickets still answer Encore's id when the ticket exists (usually none: one query only then).
  const unwritten = items.filter(({ ticket }) => !written.has(ticket.ticketId)).map(({ ticket }) => ticket.ticketId);
  const existing = await existingTickets(db, partnerId, unwritten);
  return items.map(({ ticket: t }, k) => {
    const c = checked[k];
    const id =
      written.get(t.ticketId) ?? existing.get(t.ticketId)?.id ?? ('row' in c ? c.row.id : (items[k].serviceId ?? ''));
    if ('row' in c && written.has(t.ticketId)) return { ticketId: t.ticketId, id, status: 'imported' };
    const errors = 'errors' in c ? [...c.errors] : [];
    if (existing.get(t.ticketId)?.status === 'INVALIDATED')
      errors.unshift({
        path: 'ticketId',
        message: 'is invalid (deleted, or its show was cancelled); it cannot be changed',
      });
    return { ticketId: t.ticketId, id, status: 'failed', errors };
  });
}

/**
 * Validates tickets against the catalogue and upserts them (re-sending a ticketId updates it, never
 * duplicates it). Per-ticket results in the order given; a failed ticket does not stop the others.
 * `serviceId` is the id to give a new ticket (answered earlier by POST /v1/tickets).
 *
 * A ticket the database still refuses (a value validation did not catch, e.g. in a batch accepted
 * before it did) must not sink the others, nor a queued batch forever: the tickets go in inside a
 * savepoint, and when that fails the set is halved until the refused tickets stand alone, each then
 * reported as failed with the database's reason.
 */
export async function importTickets(
  partnerId: string,
  items: { ticket: TicketCreate; serviceId?: string }[],
  db: DbOrTx,
  batchId: string | null = null,
): Promise<ImportResult[]> {
  if (!items.length) return [];
  try {
    return await db.transaction((sp) => importTogether(partnerId, items, sp, batchId));
  } catch (err) {
    if (isTransient(err)) throw err;
    if (items.length === 1) {
      const { ticket, serviceId } = items[0];
      const reason = (pgErrorOf(err) as { message?: string } | undefined)?.message ?? (err as Error).message;
      log.warn('ticket refused by the database', { partnerId, ...errorFields(err) });
      return [
        {
          ticketId: typeof ticket?.ticketId === 'string' ? storableText(ticket.ticketId) : '',
          id: serviceId ?? '',
          status: 'failed',
          errors: [{ path: '', message: `could not be stored: ${storableText(String(reason))}` }],
        },
      ];
    }
    const half = Math.ceil(items.length / 2);
    return [
      ...(await importTickets(partnerId, items.slice(0, half), db, batchId)),
      ...(await importTickets(partnerId, items.slice(half), db, batchId)),
    ];
  }
}

/**
 * POST /v1/tickets: stores the whole request as one row and answers at once; a job imports it. Each
 * partner ticketId gets its service id now: the existing ticket's, or one reserved for it.
 */
export async function acceptTickets(partnerId: string, list: TicketCreate[], db: DbOrTx) {
  const existing = await existingTickets(
    db,
    partnerId,
    list.map((t) => t.ticketId),
  );
  const batchId = newId('tbt');
  const assigned = list.map((t) => ({ ticketId: t.ticketId, id: existing.get(t.ticketId)?.id ?? newId('tkt') }));
  await db.execute(sql`
    insert into ticket_batches (id, partner_id, total, payload, service_ids)
    values (${batchId}, ${partnerId}, ${list.length}, ${JSON.stringify(list)}::json,
      ${JSON.stringify(assigned.map((a) => a.id))}::json)`);
  return { batchId, status: 'queued' as const, total: list.length, tickets: assigned };
}

/**
 * Imports a stored batch from its cursor, a thousand tickets per transaction. Each transaction locks
 * the batch row, imports the next chunk, records its failures and moves the cursor: a run stopped
 * anywhere (or two runs at once) neither skips nor repeats a ticket.
 */
export async function processBatch(batchId: string, db: Db): Promise<void> {
  const [batch] = await db.select().from(ticketBatches).where(eq(ticketBatches.id, batchId));
  if (!batch || batch.status === 'completed') return;
  const list = (batch.payload ?? []) as TicketCreate[];
  const serviceIds = batch.serviceIds ?? [];
  if (batch.status === 'queued') {
    await db.update(ticketBatches).set({ status: 'processing' }).where(eq(ticketBatches.id, batchId));
  }
  for (let more = true; more;) {
    more = await db.transaction(async (tx) => {
      const [{ processed, total }] = await tx
        .select({ processed: ticketBatches.processed, total: ticketBatches.total })
        .from(ticketBatches)
        .where(eq(ticketBatches.id, batchId))
        .for('update');
      if (processed >= total) return false;
      const end = Math.min(processed + CHUNK, total);
      const results = await importTickets(
        batch.partnerId,
        list.slice(processed, end).map((ticket, k) => ({ ticket, serviceId: serviceIds[processed + k] })),
        tx,
        batchId,
      );
      const failures = results.flatMap((r, k) =>
        r.status === 'failed'
          ? [{ position: processed + k, ticket_id: storableText(r.ticketId), errors: r.errors ?? [] }]
          : [],
      );
      if (failures.length) {
        await tx.execute(sql`
          insert into ticket_batch_errors (batch_id, position, ticket_id, errors)
          select ${batchId}, f.position, f.ticket_id, f.errors
          from json_to_recordset(${JSON.stringify(failures)}::json) as f(position int, ticket_id text, errors jsonb)`);
      }
      await tx
        .update(ticketBatches)
        .set({
          processed: end,
          imported: sql`${ticketBatches.imported} + ${results.length - failures.length}`,
          failed: sql`${ticketBatches.failed} + ${failures.length}`,
        })
        .where(eq(ticketBatches.id, batchId));
      return end < total;
    });
  }
  await db
    .update(ticketBatches)
    .set({ status: 'completed', completedAt: sql`now()`, payload: null })
    .where(and(eq(ticketBatches.id, batchId), sql`${ticketBatches.status} <> 'completed'`));
}

/**
 * Ends a batch whose import keeps failing: every ticket not imported yet is recorded as failed with
 * `reason`, and the batch completes (the partner sees which tickets to send again).
 */
export async function abandonBatch(batchId: string, reason: string, db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const [batch] = await tx.select().from(ticketBatches).where(eq(ticketBatches.id, batchId)).for('update');
    if (!batch || batch.status === 'completed') return;
    const list: unknown[] = Array.isArray(batch.payload) ? batch.payload : [];
    const failures = [];
    for (let position = batch.processed; position < batch.total; position++) {
      const item = list[position] as { ticketId?: unknown } | undefined;
      const ticketId = typeof item?.ticketId === 'string' ? storableText(item.ticketId) : '';
      failures.push({ position, ticket_id: ticketId, errors: [{ path: '', message: reason }] });
    }
    if (failures.length) {
      await tx.execute(sql`
        insert into ticket_batch_errors (batch_id, position, ticket_id, errors)
        select ${batchId}, f.position, f.ticket_id, f.errors
        from json_to_recordset(${JSON.stringify(failures)}::json) as f(position int, ticket_id text, errors jsonb)
        on conflict do nothing`);
    }
    await tx
      .update(ticketBatches)
      .set({
        status: 'completed',
        completedAt: sql`now()`,
        payload: null,
        processed: batch.total,
        failed: sql`${ticketBatches.failed} + ${failures.length}`,
      })
      .where(eq(ticketBatches.id, batchId));
  });
}

export async function getBatch(partnerId: string, batchId: string, db: DbOrTx) {
  const [batch] = await db
    .select()
    .from(ticketBatches)
    .where(and(eq(ticketBatches.id, batchId), eq(ticketBatches.partnerId, partnerId)));
  if (!batch) throw notFound('Ticket batch not found');
  const failedItems = await db
    .select({ ticketId: ticketBatchErrors.ticketId, errors: ticketBatchErrors.errors })
    .from(ticketBatchErrors)
    .where(eq(ticketBatchErrors.batchId, batchId))
    .orderBy(asc(ticketBatchErrors.position))
    .limit(1000);
  return {
    batchId: batch.id,
    status: batch.status,
    total: batch.total,
    imported: batch.imported,
    failed: batch.failed,
    pending: batch.total - batch.imported - batch.failed,
    createdAt: new Date(batch.createdAt).toISOString(),
    completedAt: batch.completedAt ? new Date(batch.completedAt).toISOString() : null,
    errors: failedItems.map((f) => ({ ticketId: f.ticketId, errors: (f.errors as TicketError[] | null) ?? [] })),
  };
}

/** Batches not finished (the app stopped mid-import, or a job was lost): their ids, for the sweep. */
export async function unfinishedBatchIds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ id: ticketBatches.id })
    .from(ticketBatches)
    .where(inArray(ticketBatches.status, ['queued', 'processing']));
  return rows.map((r) => r.id);
}

/** POST /v1/sync/tickets: the import, done now, with a result per ticket. */
export async function syncTickets(partnerId: string, list: TicketCreate[], db: Db) {
  const results = await db.transaction((tx) =>
    importTickets(
      partnerId,
      list.map((ticket) => ({ ticket })),
      tx,
    ),
  );
  const failed = results.filter((r) => r.status === 'failed').length;
  return { imported: results.length - failed, failed, tickets: results };
}

/**
 * Sync on demand (the selling flow, for tickets the partner's verification endpoint vouches for but
 * never pushed): stores the tickets Encore does not have yet and leaves every stored one as it is
 * (a ticket the partner pushed meanwhile keeps its code). One transaction; two tabs syncing the same
 * ticket at once store one row (ON CONFLICT DO NOTHING on the partner's ticket id).
 */
export async function storeVouchedTickets(partnerId: string, list: TicketCreate[], db: Db) {
  if (!list.length) return [];
  return db.transaction((tx) =>
    importTogether(
      partnerId,
      list.map((ticket) => ({ ticket })),
      tx,
      null,
      true,
    ),
  );
}
