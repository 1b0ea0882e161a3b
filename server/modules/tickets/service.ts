import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, getDb } from '@/db';
import {
  combinations,
  events,
  priceTypes,
  shows,
  ticketBatches,
  ticketBatchItems,
  ticketOptions,
  tickets,
} from '@/db/schema';
import { notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { toMinorUnits } from '@/server/lib/money';
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

/** Our ids for these partner ticketIds where the tickets exist already. */
async function existingIds(db: DbOrTx, partnerId: string, ticketIds: string[]) {
  const map = new Map<string, { id: string; status: string }>();
  for (let i = 0; i < ticketIds.length; i += CHUNK) {
    const rows = await db
      .select({ ticketId: tickets.ticketId, id: tickets.id, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.partnerId, partnerId), inArray(tickets.ticketId, ticketIds.slice(i, i + CHUNK))));
    for (const r of rows) map.set(r.ticketId, { id: r.id, status: r.status });
  }
  return map;
}

/**
 * Validates tickets against the catalogue and upserts them (re-sending a ticketId updates it, never
 * duplicates it). Per-ticket results; a failed ticket does not stop the others. A ticket must name an
 * existing event, a LIVE show of it (showId may be left out when the event has one show), one of the
 * show's ticket options and, with priceTypeId, a declared combination. Invalidated tickets stay so.
 */
export async function importTickets(
  partnerId: string,
  items: { ticket: TicketCreate; serviceId?: string }[],
  db: DbOrTx = getDb(),
): Promise<ImportResult[]> {
  const refs = [...new Set(items.map((i) => i.ticket.externalReferenceEventId))];
  const eventRows = await db
    .select({ pk: events.id, ref: events.externalReferenceId })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), inArray(events.externalReferenceId, refs)));
  const eventByRef = new Map(eventRows.map((e) => [e.ref, e.pk]));
  const eventPks = eventRows.map((e) => e.pk);
  const showRows = eventPks.length
    ? await db
        .select({ pk: shows.id, showId: shows.showId, eventPk: shows.eventId, status: shows.status })
        .from(shows)
        .where(inArray(shows.eventId, eventPks))
    : [];
  const showByKey = new Map(showRows.map((s) => [`${s.eventPk}|${s.showId}`, s]));
  const showsOfEvent = new Map<string, typeof showRows>();
  for (const s of showRows) showsOfEvent.set(s.eventPk, [...(showsOfEvent.get(s.eventPk) ?? []), s]);
  const showPks = showRows.map((s) => s.pk);
  const [options, types, combos] = showPks.length
    ? await Promise.all([
        db
          .select({
            showPk: ticketOptions.showPk,
            id: ticketOptions.ticketId,
            currency: ticketOptions.currency,
            priceMinor: ticketOptions.priceMinor,
          })
          .from(ticketOptions)
          .where(inArray(ticketOptions.showPk, showPks)),
        db
          .select({ showPk: priceTypes.showPk, id: priceTypes.priceTypeId })
          .from(priceTypes)
          .where(inArray(priceTypes.showPk, showPks)),
        db
          .select({
            showPk: combinations.showPk,
            o: combinations.ticketOptionId,
            p: combinations.priceTypeId,
            priceMinor: combinations.priceMinor,
          })
          .from(combinations)
          .where(inArray(combinations.showPk, showPks)),
      ])
    : [[], [], []];
  const optionByKey = new Map(options.map((o) => [`${o.showPk}|${o.id}`, o]));
  const typeSet = new Set(types.map((t) => `${t.showPk}|${t.id}`));
  const comboByKey = new Map(combos.map((c) => [`${c.showPk}|${c.o}|${c.p}`, c]));
  const existing = await existingIds(
    db,
    partnerId,
    items.map((i) => i.ticket.ticketId),
  );

  const results: ImportResult[] = [];
  const rows: (typeof tickets.$inferInsert)[] = [];
  for (const { ticket: t, serviceId } of items) {
    const errors: TicketError[] = [];
    const prior = existing.get(t.ticketId);
    const id = prior?.id ?? serviceId ?? newId('tkt');
    const fail = (path: string, message: string) => errors.push({ path, message });
    const eventPk = eventByRef.get(t.externalReferenceEventId);
    let show: (typeof showRows)[number] | undefined;
    if (prior?.status === 'INVALIDATED') fail('ticketId', 'was deleted and is invalid; it cannot be changed');
    if (!eventPk) fail('externalReferenceEventId', 'Event not found');
    else if (t.showId) {
      show = showByKey.get(`${eventPk}|${t.showId}`);
      if (!show) fail('showId', 'does not belong to the event');
    } else {
      const list = showsOfEvent.get(eventPk) ?? [];
      if (list.length === 1) show = list[0];
      else fail('showId', 'is required: the event has several shows');
    }
    if (show?.status === 'CANCELLED') fail('showId', 'the show is cancelled and takes no new tickets');
    const option = show ? optionByKey.get(`${show.pk}|${t.ticketOptionId}`) : undefined;
    if (show && !option) fail('ticketOptionId', "must equal a ticketId of the show's ticket options");
    let comboPrice: number | null | undefined;
    if (show && option && t.priceTypeId) {
      if (!typeSet.has(`${show.pk}|${t.priceTypeId}`))
        fail('priceTypeId', "must equal a priceTypeId of the show's price types");
      else {
        const combo = comboByKey.get(`${show.pk}|${t.ticketOptionId}|${t.priceTypeId}`);
        if (!combo) fail('priceTypeId', 'this ticketOption + priceType pair is not a declared COMBINATION');
        comboPrice = combo?.priceMinor;
      }
    }
    let priceMinor: number | null = comboPrice ?? option?.priceMinor ?? null;
    if (option && t.price !== undefined && t.price !== null) {
      const m = toMinorUnits(t.price, option.currency);
      if ('error' in m) fail('price', m.error);
      else priceMinor = m.minor;
    }
    if (errors.length || !eventPk || !show || !option) {
      results.push({ ticketId: t.ticketId, id, status: 'failed', errors });
      continue;
    }
    const buyerEmail = typeof t.buyer === 'string' ? t.buyer : (t.buyer.email ?? null);
    rows.push({
      id,
      partnerId,
      ticketId: t.ticketId,
      eventPk,
      showPk: show.pk,
      ticketOptionId: t.ticketOptionId,
      priceTypeId: t.priceTypeId ?? null,
      currency: option.currency,
      priceMinor,
      buyer: t.buyer,
      buyerEmail: buyerEmail?.toLowerCase() ?? null,
      data: {
        ticketAccess: t.ticketAccess,
        ...(t.buyerEmailExternal !== undefined ? { buyerEmailExternal: t.buyerEmailExternal } : {}),
        ...(t.primarySaleBuyerData ? { primarySaleBuyerData: t.primarySaleBuyerData } : {}),
        ...(t.nominalTicket ? { nominalTicket: t.nominalTicket } : {}),
        ...(t.props ? { props: t.props } : {}),
        ...(t.primarySalesFee ? { primarySalesFee: t.primarySalesFee } : {}),
        ...(t.tags ? { tags: t.tags } : {}),
      },
    });
    results.push({ ticketId: t.ticketId, id, status: 'imported' });
  }

  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insert(tickets)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [tickets.partnerId, tickets.ticketId],
        set: {
          eventPk: sql`excluded.event_pk`,
          showPk: sql`excluded.show_pk`,
          ticketOptionId: sql`excluded.ticket_option_id`,
          priceTypeId: sql`excluded.price_type_id`,
          currency: sql`excluded.currency`,
          priceMinor: sql`excluded.price_minor`,
          buyer: sql`excluded.buyer`,
          buyerEmail: sql`excluded.buyer_email`,
          data: sql`excluded.data`,
          updatedAt: sql`now()`,
        },
        // A ticket invalidated meanwhile stays invalid.
        setWhere: sql`${tickets.status} = 'VALID'`,
      });
  }
  return results;
}

/**
 * POST /v1/tickets: stores the whole request (one row per ticket) and answers at once; a job imports it.
 * Each partner ticketId gets its service id now: the existing ticket's, or one reserved for it.
 */
export async function acceptTickets(partnerId: string, list: TicketCreate[], db = getDb()) {
  const existing = await existingIds(
    db,
    partnerId,
    list.map((t) => t.ticketId),
  );
  const batchId = newId('tbt');
  const assigned = list.map((t) => ({ ticketId: t.ticketId, id: existing.get(t.ticketId)?.id ?? newId('tkt') }));
  await db.transaction(async (tx) => {
    await tx.insert(ticketBatches).values({ id: batchId, partnerId, total: list.length });
    for (let i = 0; i < list.length; i += CHUNK) {
      await tx.insert(ticketBatchItems).values(
        list.slice(i, i + CHUNK).map((t, j) => ({
          batchId,
          position: i + j,
          ticketId: t.ticketId,
          serviceId: assigned[i + j].id,
          payload: t,
        })),
      );
    }
  });
  return { batchId, status: 'queued' as const, total: list.length, tickets: assigned };
}

/** Imports a stored batch's pending tickets, a thousand at a time. Idempotent: done items are skipped. */
export async function processBatch(batchId: string, db = getDb()): Promise<void> {
  const [batch] = await db.select().from(ticketBatches).where(eq(ticketBatches.id, batchId));
  if (!batch || batch.status === 'completed') return;
  await db.update(ticketBatches).set({ status: 'processing' }).where(eq(ticketBatches.id, batchId));
  for (;;) {
    const items = await db
      .select()
      .from(ticketBatchItems)
      .where(and(eq(ticketBatchItems.batchId, batchId), eq(ticketBatchItems.status, 'pending')))
      .orderBy(asc(ticketBatchItems.position))
      .limit(CHUNK);
    if (!items.length) break;
    await db.transaction(async (tx) => {
      const results = await importTickets(
        batch.partnerId,
        items.map((it) => ({ ticket: it.payload as TicketCreate, serviceId: it.serviceId })),
        tx,
      );
      const outcome = JSON.stringify(
        items.map((it, k) => ({ position: it.position, status: results[k].status, errors: results[k].errors ?? null })),
      );
      await tx.execute(sql`
        update ticket_batch_items i set status = v.status, errors = v.errors
        from jsonb_to_recordset(${outcome}::jsonb) as v(position int, status text, errors jsonb)
        where i.batch_id = ${batchId} and i.position = v.position`);
      const failed = results.filter((r) => r.status === 'failed').length;
      await tx
        .update(ticketBatches)
        .set({
          imported: sql`${ticketBatches.imported} + ${results.length - failed}`,
          failed: sql`${ticketBatches.failed} + ${failed}`,
        })
        .where(eq(ticketBatches.id, batchId));
    });
  }
  await db
    .update(ticketBatches)
    .set({ status: 'completed', completedAt: sql`now()` })
    .where(and(eq(ticketBatches.id, batchId), sql`${ticketBatches.status} <> 'completed'`));
}

export async function getBatch(partnerId: string, batchId: string, db: DbOrTx = getDb()) {
  const [batch] = await db
    .select()
    .from(ticketBatches)
    .where(and(eq(ticketBatches.id, batchId), eq(ticketBatches.partnerId, partnerId)));
  if (!batch) throw notFound('Ticket batch not found');
  const failedItems = await db
    .select({ ticketId: ticketBatchItems.ticketId, errors: ticketBatchItems.errors })
    .from(ticketBatchItems)
    .where(and(eq(ticketBatchItems.batchId, batchId), eq(ticketBatchItems.status, 'failed')))
    .orderBy(asc(ticketBatchItems.position))
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
export async function unfinishedBatchIds(db: DbOrTx = getDb()): Promise<string[]> {
  const rows = await db
    .select({ id: ticketBatches.id })
    .from(ticketBatches)
    .where(inArray(ticketBatches.status, ['queued', 'processing']));
  return rows.map((r) => r.id);
}

/** POST /v1/sync/tickets: the import, done now, with a result per ticket. */
export async function syncTickets(partnerId: string, list: TicketCreate[]) {
  const results = await getDb().transaction((tx) =>
    importTickets(
      partnerId,
      list.map((ticket) => ({ ticket })),
      tx,
    ),
  );
  const failed = results.filter((r) => r.status === 'failed').length;
  return { imported: results.length - failed, failed, tickets: results };
}
