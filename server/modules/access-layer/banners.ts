import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { banners } from '@/db/schema/access-layer';
import { publicBaseUrl } from '@/server/env';
import { AppError, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { showDirectory } from '@/server/modules/catalog';
import { showInventories } from '@/server/modules/market-data';
import { resaleEntryUrl } from '@/server/modules/fan-pages';
import { type BannerInput, bannerVisible, type SellBannerComponent, toSellBannerComponent } from './schemas';

/*
 * Sell banners: staff configure them per partner, event or show (dashboard → Banners) with visibility
 * rules; the sell and buy access layers answer them as `sellBanner` components (`bannerComponents`),
 * built by the same function the dashboard's preview renders.
 */

export type BannerRow = typeof banners.$inferSelect;

/** The partner's event and show named by staff, as our ids; a field error when they do not exist. */
async function scopeOf(partnerId: string, eventRef: string | null, showId: string | null, db: DbOrTx) {
  if (!eventRef) {
    if (showId)
      throw new AppError('VALIDATION_FAILED', 'Name the event of the show', {
        details: [{ path: 'eventRef', message: 'Name the event of this show' }],
      });
    return { eventPk: null, showPk: null };
  }
  const d = showDirectory(db);
  const rows = await db
    .select({ eventPk: d.eventPk, showPk: d.showPk, showId: d.showId })
    .from(d)
    .where(and(eq(d.partnerId, partnerId), eq(d.eventRef, eventRef)));
  if (!rows.length)
    throw new AppError('VALIDATION_FAILED', 'No such event', {
      details: [{ path: 'eventRef', message: 'No event of this partner has this externalReferenceId' }],
    });
  if (!showId) return { eventPk: rows[0].eventPk, showPk: null };
  const show = rows.find((r) => r.showId === showId);
  if (!show)
    throw new AppError('VALIDATION_FAILED', 'No such show', {
      details: [{ path: 'showId', message: 'The event has no show with this showId' }],
    });
  return { eventPk: show.eventPk, showPk: show.showPk };
}

function values(input: BannerInput) {
  return {
    placement: input.placement,
    title: input.title,
    description: input.description,
    imageUrl: input.imageUrl,
    backgroundColor: input.backgroundColor,
    textColor: input.textColor,
    ctaText: input.ctaText,
    ctaUrl: input.ctaUrl,
    ctaEnabled: input.ctaEnabled,
    ctaBackgroundColor: input.ctaBackgroundColor,
    ctaTextColor: input.ctaTextColor,
    onlyWhenPrimarySoldOut: input.onlyWhenPrimarySoldOut,
    hoursBeforeShow: input.hoursBeforeShow,
    onlyForSellersWithSellable: input.onlyForSellersWithSellable,
    active: input.active,
  };
}

export async function createBanner(input: BannerInput, db: DbOrTx) {
  const scope = await scopeOf(input.partnerId, input.eventRef, input.showId, db);
  const [row] = await db
    .insert(banners)
    .values({ id: newId('bnr'), partnerId: input.partnerId, ...scope, ...values(input) })
    .returning();
  return row;
}

export async function updateBanner(input: BannerInput & { bannerId: string }, db: DbOrTx) {
  const scope = await scopeOf(input.partnerId, input.eventRef, input.showId, db);
  const [row] = await db
    .update(banners)
    .set({ ...scope, ...values(input), updatedAt: sql`now()` })
    .where(and(eq(banners.id, input.bannerId), eq(banners.partnerId, input.partnerId)))
    .returning();
  if (!row) throw notFound('Banner not found');
  return row;
}

export async function deleteBanner(partnerId: string, bannerId: string, db: DbOrTx) {
  const gone = await db
    .delete(banners)
    .where(and(eq(banners.id, bannerId), eq(banners.partnerId, partnerId)))
    .returning();
  if (!gone.length) throw notFound('Banner not found');
  return gone[0];
}

/** The partner's banners for the dashboard, newest first, with their scope in the partner's ids. */
export async function listBanners(partnerId: string, db: DbOrTx) {
  const rows = await db.select().from(banners).where(eq(banners.partnerId, partnerId)).orderBy(desc(banners.createdAt));
  const d = showDirectory(db);
  const pks = [...new Set(rows.flatMap((r) => (r.eventPk ? [r.eventPk] : [])))];
  const shows = pks.length
    ? await db
        .select({
          eventPk: d.eventPk,
          eventRef: d.eventRef,
          showPk: d.showPk,
          showId: d.showId,
          eventTitle: d.eventTitle,
        })
        .from(d)
        .where(inArray(d.eventPk, pks))
    : [];
  return {
    /** Where a sell banner's button leads when it names no URL. */
    resaleEntryUrl: resaleEntryUrl(partnerId),
    items: rows.map((r) => {
      const event = shows.find((s) => s.eventPk === r.eventPk);
      const show = shows.find((s) => s.showPk === r.showPk);
      return {
        ...r,
        eventRef: event?.eventRef ?? null,
        eventTitle: event?.eventTitle ?? null,
        showId: show?.showId ?? null,
        defaultUrl: defaultUrlOf(partnerId, r.placement === 'BUY' ? 'buy' : 'sell', r.eventPk, r.showPk),
      };
    }),
  };
}

function defaultUrlOf(partnerId: string, placement: 'sell' | 'buy', eventPk: string | null, showPk: string | null) {
  if (placement === 'buy' && eventPk && showPk) return `${publicBaseUrl()}/market/${eventPk}?show=${showPk}`;
  return resaleEntryUrl(partnerId);
}

/**
 * The active banners of a placement that take in any of these shows, with what decides their
 * visibility. Shows given with their start times (`startsAt`) save the read of them.
 */
async function bannersFor(
  partnerId: string,
  placement: 'sell' | 'buy',
  scopes: { eventPk: string; showPk: string; startsAt?: Date }[],
  db: DbOrTx,
) {
  const eventPks = [...new Set(scopes.map((s) => s.eventPk))];
  const showPks = [...new Set(scopes.map((s) => s.showPk))];
  if (!showPks.length) return null;
  const d = showDirectory(db);
  const knownStarts = scopes.every((s) => s.startsAt)
    ? scopes.map((s) => ({ showPk: s.showPk, startsAt: s.startsAt! }))
    : null;
  const [rows, shows, inventory] = await Promise.all([
    db
      .select()
      .from(banners)
      .where(
        and(
          eq(banners.partnerId, partnerId),
          eq(banners.active, true),
          inArray(banners.placement, [placement === 'sell' ? 'SELL' : 'BUY', 'BOTH']),
          or(isNull(banners.eventPk), inArray(banners.eventPk, eventPks)),
          or(isNull(banners.showPk), inArray(banners.showPk, showPks)),
        ),
      )
      .orderBy(desc(banners.createdAt)),
    knownStarts ?? db.select({ showPk: d.showPk, startsAt: d.startsAt }).from(d).where(inArray(d.showPk, showPks)),
    showInventories(showPks, db),
  ]);
  const startsAt = new Map(shows.map((s) => [s.showPk, s.startsAt]));
  const rank = (r: BannerRow) => (r.showPk ? 2 : r.eventPk ? 1 : 0);
  return {
    rows: rows.sort((a, b) => rank(b) - rank(a)),
    matches: (r: BannerRow, s: { eventPk: string; showPk: string }) =>
      (!r.eventPk || r.eventPk === s.eventPk) && (!r.showPk || r.showPk === s.showPk),
    visibleFor: (r: BannerRow, showPk: string, hasSellableTickets: boolean | null) =>
      bannerVisible(r, {
        primarySoldOut: inventory.get(showPk)?.primarySoldOut ?? false,
        hoursUntilShow: ((startsAt.get(showPk)?.getTime() ?? 0) - Date.now()) / 3_600_000,
        hasSellableTickets,
      }),
  };
}

/**
 * The sell access layer's `sellBanner` components for a seller's shows: every active banner whose
 * scope (partner-wide, an event, a show) takes in one of them, most specific first, `visible` when its
 * rules hold for at least one of those shows.
 */
export async function bannerComponents(
  input: { partnerId: string; scopes: { eventPk: string; showPk: string }[]; hasSellableTickets: boolean },
  db: DbOrTx,
): Promise<SellBannerComponent[]> {
  return sellBannerComponentsOf(await sellBannersFor(input.partnerId, input.scopes, db), input);
}

/**
 * The reads behind the sell banners of these shows (their banners, inventories, start times), for
 * `sellBannerComponentsOf`: a caller that knows the shows early reads them beside its own reads.
 */
export function sellBannersFor(
  partnerId: string,
  shows: { eventPk: string; showPk: string; startsAt?: Date }[],
  db: DbOrTx,
) {
  return bannersFor(partnerId, 'sell', shows, db);
}

/** The sell banner components of the seller's shows (`scopes`), from what `sellBannersFor` read. */
export function sellBannerComponentsOf(
  found: Awaited<ReturnType<typeof sellBannersFor>>,
  input: { partnerId: string; scopes: { eventPk: string; showPk: string }[]; hasSellableTickets: boolean },
): SellBannerComponent[] {
  if (!found) return [];
  return found.rows.flatMap((r) => {
    const matching = input.scopes.filter((s) => found.matches(r, s));
    if (!matching.length) return [];
    const visible = matching.some((s) => found.visibleFor(r, s.showPk, input.hasSellableTickets));
    const only = matching.length === 1 ? matching[0] : null;
    return [
      toSellBannerComponent(r, {
        visible,
        defaultUrl: defaultUrlOf(input.partnerId, 'sell', only?.eventPk ?? null, only?.showPk ?? null),
      }),
    ];
  });
}

/** The buy access layer's `sellBanner` components, per show (three queries for any number of shows). */
export async function buyBannerComponents(
  partnerId: string,
  scopes: { eventPk: string; showPk: string }[],
  db: DbOrTx,
): Promise<Map<string, SellBannerComponent[]>> {
  const out = new Map<string, SellBannerComponent[]>();
  const found = await bannersFor(partnerId, 'buy', scopes, db);
  for (const s of scopes) {
    out.set(
      s.showPk,
      (found?.rows ?? [])
        .filter((r) => found!.matches(r, s))
        .map((r) =>
          toSellBannerComponent(r, {
            visible: found!.visibleFor(r, s.showPk, null),
            defaultUrl: defaultUrlOf(partnerId, 'buy', s.eventPk, s.showPk),
          }),
        ),
    );
  }
  return out;
}
