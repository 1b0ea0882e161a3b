import { and, count, desc, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { leads } from '@/db/schema/market-data';
import { csvField } from '@/server/lib/csv';
import { fromMinorUnits } from '@/server/lib/money';
import { LEAD_TYPES } from './lead-schemas';

/* The staff's view of a partner's leads: counts per event and type, a paged list, and the CSV export. */

export const listLeadsInput = z.object({
  partnerId: z.string().min(1),
  eventRef: z.string().trim().max(200).optional(),
  type: z.enum(LEAD_TYPES).optional(),
  page: z.int().min(1).default(1),
  pageSize: z.int().min(1).max(100).default(25),
});
export type ListLeadsInput = z.input<typeof listLeadsInput>;

const where = (partnerId: string, eventRef?: string, type?: (typeof LEAD_TYPES)[number]) =>
  and(
    eq(leads.partnerId, partnerId),
    eventRef ? eq(leads.externalReferenceEventId, eventRef) : undefined,
    type ? eq(leads.type, type) : undefined,
  );

/** Leads per event and type (events with the most leads first). */
export async function leadCounts(partnerId: string, db: DbOrTx) {
  const rows = await db
    .select({ eventRef: leads.externalReferenceEventId, type: leads.type, n: count() })
    .from(leads)
    .where(eq(leads.partnerId, partnerId))
    .groupBy(leads.externalReferenceEventId, leads.type);
  const byEvent = new Map<string, Record<(typeof LEAD_TYPES)[number], number> & { total: number }>();
  for (const r of rows) {
    const e = byEvent.get(r.eventRef) ?? {
      TICKET_HOLDER: 0,
      ABANDONED_CART: 0,
      VIRTUAL_QUEUE: 0,
      WISHLIST: 0,
      total: 0,
    };
    e[r.type] = r.n;
    e.total += r.n;
    byEvent.set(r.eventRef, e);
  }
  return [...byEvent].map(([eventRef, counts]) => ({ eventRef, ...counts })).sort((a, b) => b.total - a.total);
}

/** A page of leads, newest first. */
export async function listLeads(input: ListLeadsInput, db: DbOrTx) {
  const q = listLeadsInput.parse(input);
  const filter = where(q.partnerId, q.eventRef || undefined, q.type);
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(filter)
      .orderBy(desc(leads.updatedAt), leads.id)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(leads).where(filter),
  ]);
  return { items: rows, total: n, page: q.page, pageSize: q.pageSize };
}

/** The e-mails of an event's leads of some types (the funnel's stages), lower-cased and distinct. */
export async function leadEmails(
  partnerId: string,
  eventRef: string,
  types: (typeof LEAD_TYPES)[number][],
  db: DbOrTx,
) {
  const rows = await db
    .selectDistinct({ email: leads.buyerEmail })
    .from(leads)
    .where(
      and(
        eq(leads.partnerId, partnerId),
        eq(leads.externalReferenceEventId, eventRef),
        isNotNull(leads.buyerEmail),
        sql`${leads.type} = any(${`{${types.join(',')}}`}::lead_type[])`,
      ),
    );
  return rows.map((r) => r.email!);
}

const CSV_COLUMNS = [
  'type',
  'externalReferenceEventId',
  'showId',
  'buyerEmail',
  'buyerPhone',
  'buyerId',
  'buyerFullName',
  'ticketId',
  'price',
  'currency',
  'ticketOptionId',
  'priceTypeId',
  'purchaseDate',
  'tags',
  'unsubscribed',
  'updatedAt',
] as const;

/** The leads as CSV, a header then a line per lead in the order they came, read in pages of 1,000 (an async iterator of chunks). */
export async function* leadsCsv(partnerId: string, eventRef: string | undefined, db: DbOrTx): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  // In the order they came (then id), a page at a time after the last one's (time, id): keyset, never OFFSET.
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const from = after;
    const rows = await db
      .select({ ...getTableColumns(leads), sortAt: sql<string>`${leads.createdAt}::text` })
      .from(leads)
      .where(
        and(
          where(partnerId, eventRef),
          from ? sql`(${leads.createdAt}, ${leads.id}) > (${from.at}::timestamptz, ${from.id})` : undefined,
        ),
      )
      .orderBy(leads.createdAt, leads.id)
      .limit(1000);
    if (!rows.length) return;
    yield rows
      .map((r) =>
        [
          r.type,
          r.externalReferenceEventId,
          r.showId,
          r.buyerEmail,
          r.buyerPhone,
          r.buyerId,
          r.buyerFullName,
          r.ticketId,
          r.price !== null && r.currency ? fromMinorUnits(r.price, r.currency) : r.price,
          r.currency,
          r.ticketOptionId,
          r.priceTypeId,
          r.purchaseDate?.toISOString(),
          r.tags.join(' '),
          r.unsubscribedAt ? 'yes' : '',
          r.updatedAt.toISOString(),
        ]
          .map(csvField)
          .join(','),
      )
      .map((line) => `${line}\r\n`)
      .join('');
    const last = rows[rows.length - 1];
    after = { at: last.sortAt, id: last.id };
  }
}
