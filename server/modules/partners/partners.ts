import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { partners } from '@/db/schema/partners';
import { env } from '@/server/env';
import { badRequest, type ErrorDetail, notFound } from '@/server/lib/errors';
import { parseReturnOrigin } from '@/server/lib/return-origins';
import { forgetReturnOrigins } from './return-origins';
import { newId } from '@/server/lib/ids';
import { afterCommit } from '@/server/lib/transaction';
import { createPublishableKey } from './publishable-keys';
import {
  type CreatePartnerInput,
  type ListPartnersInput,
  type RenamePartnerInput,
  type SetPartnerDisabledInput,
  type SetPrimarySalesFeeInput,
  createPartnerInput,
  listPartnersInput,
  renamePartnerInput,
  setPartnerLogoInput,
  type SetPartnerLogoInput,
  setPartnerDisabledInput,
  setPartnerReturnOriginsInput,
  type SetPartnerReturnOriginsInput,
  setPartnerWidgetOriginsInput,
  type SetPartnerWidgetOriginsInput,
  setPartnerSupportInput,
  type SetPartnerSupportInput,
  setPrimarySalesFeeInput,
} from './schemas';
import { forgetCheckedKeys } from './key-authentication';

export type Partner = typeof partners.$inferSelect;

/**
 * Creates a live partner and, in the same transaction, its test twin: a partner row of its own
 * (`mode` test, `live_partner_id` the live one, same name) whose rows form the test data space.
 */
export async function createPartner(input: CreatePartnerInput, db: DbOrTx): Promise<Partner> {
  const { name } = createPartnerInput.parse(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(partners)
      .values({ id: newId('ptr'), name })
      .returning();
    const [twin] = await tx
      .insert(partners)
      .values({ id: newId('ptr'), name, mode: 'test', livePartnerId: row.id })
      .returning({ id: partners.id });
    // Every partner row has its publishable key from the start (the widget's; shown on the dashboard).
    await createPublishableKey(row.id, 'live', tx);
    await createPublishableKey(twin.id, 'test', tx);
    return row;
  });
}

export async function getPartner(partnerId: string, db: DbOrTx): Promise<Partner> {
  const [row] = await db.select().from(partners).where(eq(partners.id, partnerId));
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Renames the partner; a live partner's test twin takes the new name too. */
export async function renamePartner(input: RenamePartnerInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, name } = renamePartnerInput.parse(input);
  const rows = await db
    .update(partners)
    .set({ name, updatedAt: sql`now()` })
    .where(or(eq(partners.id, partnerId), eq(partners.livePartnerId, partnerId)))
    .returning();
  const row = rows.find((r) => r.id === partnerId);
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Sets (or with null / an empty string removes) the partner's logo shown on every fan page. */
export async function setPartnerLogo(input: SetPartnerLogoInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, logoUrl } = setPartnerLogoInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ logoUrl, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Sets the partner's support contact for fans (each field: null or '' removes it; Encore's is used then). */
export async function setPartnerSupport(input: SetPartnerSupportInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, supportUrl, supportEmail } = setPartnerSupportInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ supportUrl, supportEmail, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

/**
 * Sets the partner's allowed return origins (an empty list removes them all): each must be an https
 * origin (http on a loopback host only with ALLOW_PRIVATE_PARTNER_URLS); a bad one is a 400 naming it.
 * Stored normalised and deduplicated; this process's cached copy is dropped at once (others: in seconds).
 */
export async function setPartnerReturnOrigins(input: SetPartnerReturnOriginsInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, returnOrigins } = setPartnerReturnOriginsInput.parse(input);
  const origins = normalisedOrigins(returnOrigins, 'returnOrigins', 'return origin');
  const [row] = await db
    .update(partners)
    .set({ returnOrigins: origins, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  forgetReturnOrigins(partnerId);
  return row;
}

/**
 * Sets the origins whose pages may call the API with the partner's publishable key (the widget; CORS): an
 * empty list lets any origin. Checked and normalised like return origins (a bad one is a 400 naming
 * `widgetOrigins[i]`). The list is read with the key (it is remembered with it for 5 s per instance), so
 * this instance forgets its checked keys once the change commits; other instances follow within 5 s.
 */
export async function setPartnerWidgetOrigins(input: SetPartnerWidgetOriginsInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, widgetOrigins } = setPartnerWidgetOriginsInput.parse(input);
  const origins = normalisedOrigins(widgetOrigins, 'widgetOrigins', 'widget origin');
  const [row] = await db
    .update(partners)
    .set({ widgetOrigins: origins, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  afterCommit(db, forgetCheckedKeys);
  return row;
}

/**
 * Origins as staff typed them, each parsed (https, or http on loopback with ALLOW_PRIVATE_PARTNER_URLS),
 * normalised and deduplicated; any bad one is a 400 naming `field[i]`, and nothing is stored.
 */
function normalisedOrigins(typed: readonly string[], field: string, what: string): string[] {
  const origins: string[] = [];
  const details: ErrorDetail[] = [];
  typed.forEach((raw, i) => {
    const parsed = parseReturnOrigin(raw, env().ALLOW_PRIVATE_PARTNER_URLS);
    if ('error' in parsed) details.push({ path: `${field}[${i}]`, message: `${raw} ${parsed.error}` });
    else if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
  });
  if (details.length) throw badRequest(`Not an allowed ${what}: ${details[0].message}`, details);
  return origins;
}

/**
 * Disables or re-enables a partner. Disabling deletes nothing: keys, catalogue and tickets stay, the
 * keys just answer 403 until the partner is enabled again. Disabling twice keeps the first time.
 */
export async function setPartnerDisabled(input: SetPartnerDisabledInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, disabled } = setPartnerDisabledInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({
      disabledAt: disabled ? sql`coalesce(${partners.disabledAt}, now())` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  forgetCheckedKeys();
  return row;
}

/**
 * Sets (or with null removes) the partner's default primary sales fee. Only `{ type, value }` is
 * stored; FIXED is an amount in major units of each ticket's currency.
 */
export async function setPrimarySalesFee(input: SetPrimarySalesFeeInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, primarySalesFee: fee } = setPrimarySalesFeeInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ primarySalesFee: fee ? { type: fee.type, value: fee.value } : null, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

/** A page of live partners; with `only`, just that partner (a partner's user sees their own alone). */
export async function listPartners(input: ListPartnersInput, db: DbOrTx, only?: string) {
  const { search, page, pageSize } = listPartnersInput.parse(input);
  // Live partners only: a test twin is reached from its live partner's page (its Test mode section).
  const where = and(
    eq(partners.mode, 'live'),
    only === undefined ? undefined : eq(partners.id, only),
    search ? ilike(partners.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  // Table-qualified by hand: drizzle renders a lone column of the outer table without its table name.
  const activeKeys = sql<number>`(select count(*)::int from api_keys k where k.partner_id = "partners"."id" and k.revoked_at is null and k.kind = 'partner')`;
  const [items, [{ total }]] = await Promise.all([
    db
      .select({
        id: partners.id,
        name: partners.name,
        createdAt: partners.createdAt,
        disabledAt: partners.disabledAt,
        activeKeys,
      })
      .from(partners)
      .where(where)
      .orderBy(desc(partners.createdAt), desc(partners.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(partners).where(where),
  ]);
  return { items, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}
