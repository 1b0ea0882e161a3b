import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import type { StoredPrimarySalesFee } from '@/server/modules/catalog';
import { notFound } from '@/server/lib/errors';

/** Where a ticket's fee came from, nearest level first. */
export type PrimarySalesFeeSource = 'ticket' | 'ticketOption' | 'show' | 'event' | 'partner';

export interface ResolvedPrimarySalesFee {
  fee: StoredPrimarySalesFee;
  source: PrimarySalesFeeSource;
}

/**
 * The primary sales fee that applies to a ticket (anchor notes): the ticket's own
 * (`data.primarySalesFee`), else its ticket option's, else its show's, else its event's, else the
 * partner default staff set. Null when no level sets one. A FIXED value is in major units of the
 * ticket's currency, as the partner sent it. One query; the ticket is the partner's `ticketId`, and
 * another partner's (or an unknown) ticket answers 404. For the selling flow.
 */
export async function resolvePrimarySalesFee(
  partnerId: string,
  ticketId: string,
  db: DbOrTx,
): Promise<ResolvedPrimarySalesFee | null> {
  // The catalog's and the partner's fees through the views their owners define (db/schema/catalog.ts,
  // partners.ts). The option is joined like the ticket import matches it: same show, option's ticketId =
  // ticket's ticketOptionId. Only a JSON object counts as set: SQL null, JSON null or anything else falls through.
  const rows = await db.execute<{ fee: StoredPrimarySalesFee | null; source: PrimarySalesFeeSource | null }>(sql`
    select f.fee, f.source
    from tickets t
    join show_primary_sales_fees s on s.show_pk = t.show_pk
    join partner_primary_sales_fees p on p.partner_id = t.partner_id
    left join ticket_option_primary_sales_fees o on o.show_pk = t.show_pk and o.ticket_id = t.ticket_option_id
    left join lateral (
      select v.fee, v.source
      from (values
        (1, t.data -> 'primarySalesFee', 'ticket'),
        (2, o.fee, 'ticketOption'),
        (3, s.show_fee, 'show'),
        (4, s.event_fee, 'event'),
        (5, p.fee, 'partner')
      ) as v(rank, fee, source)
      where jsonb_typeof(v.fee) = 'object'
      order by v.rank
      limit 1
    ) f on true
    where t.partner_id = ${partnerId} and t.ticket_id = ${ticketId}`);
  const [row] = rows;
  if (!row) throw notFound('Ticket not found');
  if (!row.fee || !row.source) return null;
  // Only the two documented keys: a ticket's fee is stored as sent and may carry extra ones.
  return { fee: { type: row.fee.type, value: Number(row.fee.value) }, source: row.source };
}
