import { z } from 'zod';
import { type DbOrTx, getDb } from '@/db';
import { eventPageInfo } from '@/server/modules/catalog';
import { upsertLead } from './leads';

const email = z.email().max(254);

/**
 * A fan asks to hear when tickets of a show come up (the buy page's empty state): a WISHLIST lead for the
 * show, by e-mail (a repeat updates the same lead). Null for an unknown event or show, or a show of
 * another event; `invalid` for a bad e-mail.
 */
export async function joinWishlist(
  input: { eventPk: string; showPk: string; email: string },
  db: DbOrTx = getDb(),
): Promise<{ ok: true; email: string; created: boolean } | { ok: false; reason: 'invalid' | 'unknown' }> {
  const parsed = email.safeParse(input.email.trim().toLowerCase());
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const event = await eventPageInfo(input.eventPk, db);
  const show = event?.shows.find((s) => s.showPk === input.showPk);
  if (!event || !show) return { ok: false, reason: 'unknown' };
  const { created } = await upsertLead(
    event.partnerId,
    {
      type: 'WISHLIST',
      externalReferenceEventId: event.externalReferenceId,
      showId: show.showId,
      buyer: { email: parsed.data },
      purchaseDate: new Date(),
      metadata: { source: 'encore-market' },
    },
    db,
  );
  return { ok: true, email: parsed.data, created };
}
