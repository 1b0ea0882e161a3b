import { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db';
import { leadNotifications, leads } from '@/db/schema/market-data';
import type { Locale } from '@/server/lib/i18n';
import { eventPageInfo } from '@/server/modules/catalog';
import { upsertLead } from './leads';

const email = z.email().max(254);

/**
 * A fan asks to hear when tickets of a show come up (the buy page's empty state): a WISHLIST lead for the
 * show, by e-mail (a repeat updates the same lead). Null for an unknown event or show, or a show of
 * another event; `invalid` for a bad e-mail.
 */
export async function joinWishlist(
  input: { eventPk: string; showPk: string; email: string; locale?: Locale },
  db: DbOrTx,
): Promise<{ ok: true; email: string; created: boolean } | { ok: false; reason: 'invalid' | 'unknown' }> {
  const parsed = email.safeParse(input.email.trim().toLowerCase());
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const event = await eventPageInfo(input.eventPk, db);
  const show = event?.shows.find((s) => s.showPk === input.showPk);
  if (!event || !show) return { ok: false, reason: 'unknown' };
  const { created, lead } = await upsertLead(
    event.partnerId,
    {
      type: 'WISHLIST',
      externalReferenceEventId: event.externalReferenceId,
      showId: show.showId,
      buyer: { email: parsed.data },
      purchaseDate: new Date(),
      metadata: { source: 'encore-market' },
      locale: input.locale,
    },
    db,
  );
  // Asking again (on the buy page) undoes an earlier unsubscribe.
  if (lead.unsubscribedAt) await db.update(leads).set({ unsubscribedAt: null }).where(eq(leads.id, lead.id));
  return { ok: true, email: parsed.data, created };
}

/**
 * The WISHLIST leads of a show to tell about a new listing, each once: one statement records a
 * notification per lead (with an e-mail, still subscribed) not yet told about this listing, and answers
 * them. Runs in the listing's transaction, so a rolled-back listing tells no one.
 */
export async function claimWishlistNotifications(
  tx: Tx,
  input: { partnerId: string; eventRef: string; showId: string; listingId: string },
): Promise<{ notificationId: string; email: string; locale: Locale | null }[]> {
  const rows = await tx.execute(sql`
    insert into ${leadNotifications} (id, lead_id, listing_id)
    select 'lnt_' || replace(gen_random_uuid()::text, '-', ''), l.id, ${input.listingId}
    from ${leads} l
    where l.partner_id = ${input.partnerId} and l.external_reference_event_id = ${input.eventRef}
      and l.show_id = ${input.showId} and l.type = 'WISHLIST' and l.buyer_email is not null
      and l.unsubscribed_at is null
    on conflict (lead_id, listing_id) do nothing
    returning id, (select buyer_email from ${leads} where id = lead_id) as email,
      (select locale from ${leads} where id = lead_id) as locale`);
  return (rows as unknown as { id: string; email: string; locale: Locale | null }[]).map((r) => ({
    notificationId: r.id,
    email: r.email,
    locale: r.locale,
  }));
}

/** The lead behind an unsubscribe link (the notification id), with its show, or null. */
export async function notificationLead(notificationId: string, db: DbOrTx) {
  if (!/^lnt_[0-9a-f]{32}$/.test(notificationId)) return null;
  const [row] = await db
    .select({
      leadId: leads.id,
      partnerId: leads.partnerId,
      eventRef: leads.externalReferenceEventId,
      showId: leads.showId,
      unsubscribedAt: leads.unsubscribedAt,
    })
    .from(leadNotifications)
    .innerJoin(leads, eq(leads.id, leadNotifications.leadId))
    .where(eq(leadNotifications.id, notificationId));
  return row ?? null;
}

/** Unsubscribes the lead of a notification: no more wishlist mails for that show. */
export async function unsubscribeNotification(notificationId: string, db: DbOrTx): Promise<boolean> {
  const lead = await notificationLead(notificationId, db);
  if (!lead) return false;
  await db
    .update(leads)
    .set({ unsubscribedAt: sql`coalesce(${leads.unsubscribedAt}, now())` })
    .where(eq(leads.id, lead.leadId));
  return true;
}
