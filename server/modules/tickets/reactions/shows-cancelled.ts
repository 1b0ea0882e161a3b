import { and, eq, inArray, sql } from 'drizzle-orm';
import { tickets } from '@/db/schema/tickets';
import type { Work } from '@/server/lib/transaction';
import { recordTicketEvents } from '../history';

/**
 * Shows cancelled (the catalogue's event, in the cancelling transaction): their valid tickets are
 * invalidated, with their history.
 */
export async function invalidateTicketsOfShows(work: Work, showPks: string[]): Promise<void> {
  const { tx } = work;
  const invalidated = await tx
    .update(tickets)
    .set({ status: 'INVALIDATED', invalidatedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(inArray(tickets.showPk, showPks), eq(tickets.status, 'VALID')))
    .returning({ id: tickets.id });
  await recordTicketEvents(
    tx,
    invalidated.map((t) => t.id),
    'invalidated',
  );
}
