import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { tickets } from '@/db/schema/tickets';

/**
 * The sections a show's tickets name (`props.seating.section`, as the partner wrote them), each once: the
 * seat map lists them even when nothing of theirs is on sale. One statement.
 */
export async function showTicketSections(partnerId: string, showPk: string, db: DbOrTx): Promise<string[]> {
  const section = sql<string>`${tickets.data} -> 'props' -> 'seating' ->> 'section'`;
  const rows = await db
    .selectDistinct({ section })
    .from(tickets)
    .where(and(eq(tickets.partnerId, partnerId), eq(tickets.showPk, showPk), sql`${section} is not null`));
  return rows.map((r) => r.section).filter((s) => s.trim() !== '');
}
