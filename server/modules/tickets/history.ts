import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { ticketEvents } from '@/db/schema/tickets';

export type TicketEventKind = (typeof ticketEvents.kind.enumValues)[number];

/**
 * Records one kind of change for many tickets in a single INSERT … SELECT (callers pass the ids the
 * changing statement returned, inside its transaction), so the history costs one statement however
 * many tickets changed. `at` defaults to the transaction's now().
 */
export async function recordTicketEvents(
  db: DbOrTx,
  ticketPks: string[],
  kind: TicketEventKind,
  opts: { batchId?: string | null; at?: Date | string } = {},
): Promise<void> {
  if (!ticketPks.length) return;
  await db.execute(sql`
    insert into ticket_events (ticket_pk, kind, batch_id, at)
    select id, ${kind}, ${opts.batchId ?? null}, coalesce(${opts.at ?? null}::timestamptz, now())
    from unnest(${`{${ticketPks.map((id) => `"${id.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]) as id`);
}

/**
 * A ticket's recorded history in the order it happened (the dashboard's ticket page). By id, not `at`:
 * a batch admission records the partner's entryDate, which may lie before the import.
 */
export function ticketHistory(db: DbOrTx, ticketPk: string) {
  return db
    .select({ kind: ticketEvents.kind, batchId: ticketEvents.batchId, at: ticketEvents.at })
    .from(ticketEvents)
    .where(eq(ticketEvents.ticketPk, ticketPk))
    .orderBy(asc(ticketEvents.id));
}
