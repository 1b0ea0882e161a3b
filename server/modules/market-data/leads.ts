import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { leads } from '@/db/schema/market-data';
import { badRequest } from '@/server/lib/errors';
import type { Locale } from '@/server/lib/i18n';
import { newId } from '@/server/lib/ids';

export type LeadType = (typeof leads.$inferSelect)['type'];

/** The spec's Lead, as Encore stores it (money in minor units; the partner API maps it later). */
export interface LeadInput {
  type: LeadType;
  externalReferenceEventId: string;
  showId: string;
  buyer: { email?: string; phone?: string; id?: string; fullName?: string };
  ticketId?: string;
  priceMinor?: number;
  currency?: string;
  ticketOptionId?: string;
  priceTypeId?: string;
  purchaseDate?: Date;
  seating?: { section?: string; row?: string; seat?: string };
  metadata?: Record<string, unknown>;
  tags?: string[];
  attributes?: string[];
  /** The language of the fan page that made the lead (none through the partner API): its mails are in it. */
  locale?: Locale;
}

/**
 * The buyer identifier of the spec's upsert key: the e-mail (lower-cased) when there is one, else the
 * id, else the phone. Prefixed so an e-mail never equals an id.
 */
export function buyerKeyOf(buyer: LeadInput['buyer']): string {
  const email = buyer.email?.trim().toLowerCase();
  if (email) return `email:${email}`;
  if (buyer.id?.trim()) return `id:${buyer.id.trim()}`;
  if (buyer.phone?.trim()) return `phone:${buyer.phone.replace(/[^\d+]/g, '')}`;
  throw badRequest('A lead needs the buyer e-mail, phone or id', [
    { path: 'buyer', message: 'needs one of email, phone, id' },
  ]);
}

/**
 * Saves a lead: the same buyer identifier, event and show update the existing lead (its type and fields
 * become the new ones, fields not sent are kept), otherwise a lead is created. One statement, so two
 * sends at once still leave one row. Answers the lead and whether it was new.
 */
export async function upsertLead(partnerId: string, input: LeadInput, db: DbOrTx) {
  const buyerKey = buyerKeyOf(input.buyer);
  const values = {
    type: input.type,
    buyerEmail: input.buyer.email?.trim().toLowerCase() || null,
    buyerPhone: input.buyer.phone?.trim() || null,
    buyerId: input.buyer.id?.trim() || null,
    buyerFullName: input.buyer.fullName?.trim() || null,
    ticketId: input.ticketId ?? null,
    price: input.priceMinor ?? null,
    currency: input.currency ?? null,
    ticketOptionId: input.ticketOptionId ?? null,
    priceTypeId: input.priceTypeId ?? null,
    purchaseDate: input.purchaseDate ?? null,
    seating: input.seating ?? null,
    metadata: input.metadata ?? null,
    locale: input.locale ?? null,
  };
  // On a repeat, a field the new send leaves out keeps its stored value.
  const keep = (column: string) => sql.raw(`coalesce(excluded.${column}, leads.${column})`);
  const [row] = await db
    .insert(leads)
    .values({
      id: newId('lead'),
      partnerId,
      externalReferenceEventId: input.externalReferenceEventId,
      showId: input.showId,
      buyerKey,
      ...values,
      tags: input.tags ?? [],
      attributes: input.attributes ?? [],
    })
    .onConflictDoUpdate({
      target: [leads.partnerId, leads.externalReferenceEventId, leads.showId, leads.buyerKey],
      set: {
        type: input.type,
        buyerEmail: keep('buyer_email'),
        buyerPhone: keep('buyer_phone'),
        buyerId: keep('buyer_id'),
        buyerFullName: keep('buyer_full_name'),
        ticketId: keep('ticket_id'),
        price: keep('price'),
        currency: keep('currency'),
        ticketOptionId: keep('ticket_option_id'),
        priceTypeId: keep('price_type_id'),
        purchaseDate: keep('purchase_date'),
        seating: keep('seating'),
        metadata: keep('metadata'),
        locale: keep('locale'),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.attributes ? { attributes: input.attributes } : {}),
        updatedAt: sql`now()`,
      },
    })
    .returning({ id: leads.id, created: sql<boolean>`xmax = 0` });
  const [lead] = await db.select().from(leads).where(eq(leads.id, row.id));
  return { lead, created: row.created };
}

/** The partner's leads of one show (newest first). */
export async function leadsOfShow(partnerId: string, externalReferenceEventId: string, showId: string, db: DbOrTx) {
  return db
    .select()
    .from(leads)
    .where(
      and(
        eq(leads.partnerId, partnerId),
        eq(leads.externalReferenceEventId, externalReferenceEventId),
        eq(leads.showId, showId),
      ),
    )
    .orderBy(sql`${leads.updatedAt} desc`);
}
