import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { notFound } from '@/server/lib/errors';
import { formatMoney, resolveLocale, translator } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import { eventSeating, showDirectory } from '@/server/modules/catalog';
import { showInventories } from '@/server/modules/market-data';
import { protectionOf } from '@/server/modules/protection';
import { cheapestListings, type ShowMarketState, showMarketStates, showSections } from '@/server/modules/fan-pages';
import { cleanSeatMap, svgSections } from '@/server/lib/svg';
import { buyBannerComponents } from './banners';
import type { BuyAccessLayerResponse } from './schemas';

/*
 * The buy access layer (GET /v1/wrapper/accesslayer?type=buy and POST …/bulk): components the partner
 * shows on its event page, built from the show's resale market (active listings, the cheapest ticket
 * with fees), the primary inventory the partner reported (sold out) and whether resale is open. Every
 * component carries the buying-flow URL (Encore's market page of the show).
 */

type Component = BuyAccessLayerResponse['components'][number];
/** What every placement gets (the bulk form has no list). */
type ShowComponent = Exclude<Component, { type: 'list' } | { type: 'map' }>;
type MapComponent = Extract<Component, { type: 'map' }>;
const LIST_SIZE = 5;

interface ShowRow {
  eventPk: string;
  eventRef: string;
  showPk: string;
  showId: string;
  showStatus: string;
  resaleEnabled: boolean;
  startsAt: Date;
  /** The event's `location.country`: the components' language when the partner names none. */
  country: string | null;
  partnerName?: string;
}

async function showsOf(partnerId: string, refs: string[], db: DbOrTx): Promise<ShowRow[]> {
  if (!refs.length) return [];
  const d = showDirectory(db);
  const [rows, protection] = await Promise.all([
    db
      .select({
        eventPk: d.eventPk,
        eventRef: d.eventRef,
        showPk: d.showPk,
        showId: d.showId,
        showStatus: d.showStatus,
        resaleEnabled: d.resaleEnabled,
        startsAt: d.startsAt,
        country: d.country,
      })
      .from(d)
      .where(and(eq(d.partnerId, partnerId), inArray(d.eventRef, [...new Set(refs)]))),
    protectionOf(partnerId, db),
  ]);
  // Resale needs ticket protection (docs/decisions.md, "Ticket protection"): a show without it is not on resale.
  return rows.map((r) => ({ ...r, resaleEnabled: r.resaleEnabled && protection.active(r.eventPk, r.showPk) }));
}

/**
 * The show's buy page, with the partner's `lang` when it named one; without, the page opens in the fan's own
 * language (remembered, browser), else the event's country's (server/lib/i18n/locales.ts resolveLocale).
 */
function marketUrl(show: ShowRow, lang: string | undefined, extra = ''): string {
  return `${publicBaseUrl()}/market/${show.eventPk}?show=${show.showPk}${langParam(lang)}${extra}`;
}

function langParam(lang: string | undefined): string {
  return lang === undefined ? '' : `&lang=${encodeURIComponent(lang)}`;
}

interface Built {
  market: BuyAccessLayerResponse['market'];
  url: string;
  components: ShowComponent[];
}

function build(
  show: ShowRow,
  state: ShowMarketState,
  primarySoldOut: boolean,
  lang: string | undefined,
  partnerName: string,
): Built {
  const locale = resolveLocale({ lang, country: show.country });
  const t = translator(locale, 'accessLayer');
  const url = marketUrl(show, lang);
  const resaleEnabled = show.resaleEnabled && show.showStatus === 'LIVE' && show.startsAt.getTime() > Date.now();
  const onSale = resaleEnabled && state.listings > 0;
  const lowest =
    state.lowestTotalMinor !== null && state.currency ? fromMinorUnits(state.lowestTotalMinor, state.currency) : null;
  const price = lowest !== null && state.currency ? formatMoney(lowest, state.currency, locale) : '';
  const components: ShowComponent[] = [
    {
      type: 'button',
      class: 'buyButton',
      button: {
        text: onSale ? t('buy.buttonFrom', { price }) : t('buy.buttonNone'),
        url,
        enabled: onSale,
      },
    },
  ];
  if (primarySoldOut && resaleEnabled) {
    components.push({
      type: 'modal',
      class: 'soldOutModal',
      modal: {
        title: t('buy.modalTitle'),
        description: t('buy.modalBody', { partner: partnerName }),
        callToAction: { text: t('buy.modalCta'), url, enabled: onSale },
      },
    });
  }
  if (onSale) {
    components.push({
      type: 'banner',
      class: 'resaleBanner',
      banner: {
        title: t('buy.bannerTitle'),
        description: t('buy.bannerBody', { count: state.tickets, price }),
        visible: true,
        callToAction: { text: t('buy.bannerCta'), url, enabled: true },
      },
    });
  }
  return {
    market: {
      listings: state.listings,
      tickets: state.tickets,
      lowestPrice: lowest,
      currency: state.currency,
      primarySoldOut,
      resaleEnabled,
    },
    url,
    components,
  };
}

/** GET /v1/wrapper/accesslayer?type=buy: one show's components, with a list of its cheapest offers. */
export async function buyAccessLayer(
  partnerId: string,
  partnerName: string,
  q: { eventId: string; showId: string; lang?: string },
  db: DbOrTx,
): Promise<BuyAccessLayerResponse> {
  const lang = q.lang;
  const rows = await showsOf(partnerId, [q.eventId], db);
  if (!rows.length) throw notFound('Event not found');
  const show = rows.find((r) => r.showId === q.showId);
  if (!show) throw notFound('Show not found');
  const [builder, cheapest, map] = await Promise.all([
    showBuilder(partnerId, [show], lang, partnerName, db),
    cheapestListings(partnerId, show.showPk, LIST_SIZE, db),
    mapComponent(partnerId, show, lang, db),
  ]);
  const { built, banners } = builder(show);
  const components: Component[] = [...built.components, ...banners];
  if (built.market.resaleEnabled && cheapest.length) {
    components.push({
      type: 'list',
      class: 'listings',
      list: {
        items: cheapest.map((l) => ({
          listingId: l.listingId,
          quantity: l.quantity,
          ticketOptionId: l.ticketOptionId,
          price: fromMinorUnits(l.totalMinor, l.currency),
          currency: l.currency,
          seats: l.seats as Record<string, unknown>[],
          source: l.source,
          url: `${publicBaseUrl()}/checkout?listings=${l.listingId}${langParam(lang)}`,
        })),
      },
    });
  }
  if (map) components.push(map);
  return { eventId: q.eventId, showId: q.showId, ...built, components };
}

/**
 * The event's seat map with each section's tickets on sale and from-price: the sections the SVG
 * marks (docs "The seat map": `data-section`, or an `id` a ticket names) in its order, then those only
 * tickets name. None for an event without `seating`.
 */
async function mapComponent(
  partnerId: string,
  show: ShowRow,
  lang: string | undefined,
  db: DbOrTx,
): Promise<MapComponent | null> {
  const [seating, figures] = await Promise.all([
    eventSeating(show.eventPk, db),
    showSections(partnerId, show.showPk, db),
  ]);
  if (!seating) return null;
  const svg = seating.svg ? cleanSeatMap(seating.svg) : null;
  const byKey = new Map(figures.map((f) => [f.key, f]));
  const drawn = svg ? svgSections(svg, new Set(byKey.keys())) : [];
  const sections = [
    ...drawn.map((d) => ({ name: byKey.get(d.key)?.name ?? d.name, key: d.key, label: d.label })),
    ...figures.filter((f) => !drawn.some((d) => d.key === f.key)).map((f) => ({ ...f, label: null })),
  ];
  return {
    type: 'map',
    class: 'sectionMap',
    map: {
      visible: true,
      image: seating.image,
      svg,
      url: marketUrl(show, lang),
      sections: sections.map(({ name, key, label }) => {
        const f = byKey.get(key);
        return {
          sectionId: name,
          label: label ?? name,
          available: f?.available ?? 0,
          minPrice: f?.minPerTicketMinor != null && f.currency ? fromMinorUnits(f.minPerTicketMinor, f.currency) : null,
          currency: f?.currency ?? null,
          url: marketUrl(show, lang, `&section=${encodeURIComponent(name)}`),
        };
      }),
    },
  };
}

/**
 * Reads what these shows' components are built from (three queries whatever their number); the answer
 * builds one show's market, url and components, with the staff's banners for it beside them.
 */
async function showBuilder(
  partnerId: string,
  shows: ShowRow[],
  lang: string | undefined,
  partnerName: string,
  db: DbOrTx,
) {
  const pks = shows.map((r) => r.showPk);
  const [states, inventory, staffBanners] = await Promise.all([
    showMarketStates(partnerId, pks, db),
    showInventories(pks, db),
    buyBannerComponents(partnerId, shows, db),
  ]);
  return (show: ShowRow) => ({
    built: build(
      show,
      states.get(show.showPk)!,
      inventory.get(show.showPk)?.primarySoldOut ?? false,
      lang,
      partnerName,
    ),
    banners: staffBanners.get(show.showPk) ?? [],
  });
}

/**
 * POST /v1/wrapper/accesslayer/bulk: the button, modal and banner of many shows at once (three queries
 * whatever their number). A show Encore does not know answers `found: false` and no components, so one
 * stale id does not fail the page.
 */
export async function bulkAccessLayer(
  partnerId: string,
  partnerName: string,
  items: { eventId: string; showIds: string[] }[],
  lang: string | undefined,
  db: DbOrTx,
) {
  const rows = await showsOf(
    partnerId,
    items.map((i) => i.eventId),
    db,
  );
  const byKey = new Map(rows.map((r) => [`${r.eventRef}\u0000${r.showId}`, r]));
  const builder = await showBuilder(partnerId, rows, lang, partnerName, db);
  return items.flatMap((item) =>
    [...new Set(item.showIds)].map((showId) => {
      const show = byKey.get(`${item.eventId}\u0000${showId}`);
      if (!show) return { eventId: item.eventId, showId, found: false, market: null, url: null, components: [] };
      const { built, banners } = builder(show);
      return {
        eventId: item.eventId,
        showId,
        found: true,
        ...built,
        components: [...built.components, ...banners],
      };
    }),
  );
}
