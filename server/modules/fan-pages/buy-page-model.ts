import { createHash } from 'node:crypto';
import type { Db } from '@/db';
import { resolveLocale, supportedLocale } from '@/server/lib/i18n';
import type { BuyerPromiseFacts } from '@/server/lib/promises';
import { shortCache } from '@/server/lib/short-cache';
import { showInventories } from '@/server/modules/market-data';
import { buyerPromiseFacts } from '@/server/modules/marketplace';
import { getPartner, modeOfPartner } from '@/server/modules/partners';
import { showTicketSections } from '@/server/modules/tickets';
import { sectionKey } from '@/server/lib/svg';
import { type BuyPageView, type MarketSort, sharedBuyPage } from './buyer-pages';
import type { MarketOffer } from './offers';
import { BUY_PAGE_OFFERS_MS } from './offers-cache';
export { PAGE_VERSION_META } from '@/server/lib/freshness';
import { namedTicketOnSale } from './pages';
import { eventCountryOfPage } from './page-country';

/*
 * The public buy page's model: everything app/(market)/market/[eventId]/page.tsx draws for an
 * anonymous fan, read in one place. The page renders from it and nothing else of the database (a fan's own
 * session is read by the page itself, and never shared). Its version — a hash of the model — is what makes a
 * shared page cheap to keep fresh: a cache in front asks "still this version?" (If-None-Match) and Encore's
 * HTTP server answers 304 from the model alone, without a render, when a render now would draw the same page
 * (server/http/shared-page-render.ts). The page stamps the version it was drawn from into its HTML, so the version
 * a stored page carries is always that of the data it shows.
 */

/**
 * Listings per page: a rush show can have thousands; the fan sorts and filters, then pages. 25 fill a few
 * phone screens, and a page of them is half the render (and half the bytes) of the 50 it used to be.
 */
export const BUY_PAGE_SIZE = 25;

/** The page's query as Next.js gives it (a parameter may be repeated: the first counts). */
export type BuyPageQuery = Record<string, string | string[] | undefined>;

/** The partner as the page shows it (its frame, its name in the texts, where a fan may be sent back). */
export interface BuyPagePartner {
  id: string;
  name: string;
  logoUrl: string | null;
  returnOrigins: string[];
  /** Its support page: with no return origins set, its origin is the partner's own site for a back link. */
  supportUrl: string | null;
}

export interface BuyPageModel {
  event: BuyPageView['event'];
  show: BuyPageView['show'];
  facets: BuyPageView['facets'];
  /** Offers held now by a buyer paying (shown as held): how many, and the first to come back on sale. */
  held: BuyPageView['held'];
  /** This page's offers (BUY_PAGE_SIZE at most), of `count` matching the filters. */
  listings: MarketOffer[];
  count: number;
  /** The page shown (1-based, at most pageCount) and how many there are. */
  page: number;
  pageCount: number;
  sort: MarketSort;
  /** `qty`: how many tickets the fan wants. */
  wanted: number | undefined;
  partner: BuyPagePartner;
  /** A test partner's page says so on top. */
  mode: 'live' | 'test';
  /** The section keys the show's tickets name (the seat map's `id` convention). */
  ticketSections: string[];
  /** The show's primary inventory is sold out (the partner said so). */
  primarySoldOut: boolean;
  /** How the ticket reaches the buyer and when its code shows; null without a show. */
  promises: BuyerPromiseFacts | null;
  /** The `ticket` the address names, when it does: its open listing, if any (the page then redirects). */
  named: { listingId: string | null } | null;
  /** When the model was read: the page's one clock (the code's unlock time is told against it). */
  at: Date;
}

/** One search parameter as a string (the first when repeated). */
export function queryParam(query: BuyPageQuery, key: string): string | undefined {
  const v = query[key];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

/*
 * How the page reads its numbers and its order. The reference edge reads them the same way to make one cache
 * key of one page (edge/edge.js; server/testing/edge.test.ts checks the edge's values read as the client's).
 */

/** `qty`: how many tickets the fan wants, a whole number of at least 1; anything else is none. */
export function wantedQuantity(query: BuyPageQuery): number | undefined {
  const quantity = Number(queryParam(query, 'qty'));
  return Number.isInteger(quantity) && quantity > 0 ? quantity : undefined;
}

/** `page`: the page of offers asked for, a whole number of at least 1 (capped later); anything else is the first. */
export function requestedPage(query: BuyPageQuery): number {
  const requested = Number(queryParam(query, 'page'));
  return Number.isInteger(requested) && requested >= 1 ? requested : 1;
}

/** `sort`: `price_desc`, else the default `price_asc`. */
export function buyPageSort(query: BuyPageQuery): MarketSort {
  return queryParam(query, 'sort') === 'price_desc' ? 'price_desc' : 'price_asc';
}

interface ShowContext {
  /** The section keys the show's tickets name (listed or not): an SVG element whose id is one is a section. */
  ticketSections: string[];
  partner: BuyPagePartner;
  mode: 'live' | 'test';
  primarySoldOut: boolean;
  promises: BuyerPromiseFacts | null;
}

/**
 * The partner, the show's primary inventory and its delivery promise: the same for every fan of a show, so
 * made once per BUY_PAGE_OFFERS_MS in this process (a partner's change to its name, logo, return origins or
 * protection settings, or the primary inventory's sold-out flag, shows within that second). Kept by name on
 * globalThis (short-cache.ts): the page (in Next.js's bundle) and the version check (Encore's HTTP server)
 * read the same entries.
 */
const showContexts = shortCache<ShowContext>('buy-page-context', BUY_PAGE_OFFERS_MS);

function showContext(partnerId: string, showPk: string | undefined, db: Db): Promise<ShowContext> {
  return showContexts.get(`${partnerId} ${showPk ?? ''}`, async () => {
    const [partner, mode, inventory, promises, sections] = await Promise.all([
      getPartner(partnerId, db),
      modeOfPartner(partnerId, db),
      showPk ? showInventories([showPk], db) : undefined,
      showPk ? buyerPromiseFacts(showPk, db) : null,
      showPk ? showTicketSections(partnerId, showPk, db) : [],
    ]);
    return {
      ticketSections: [...new Set(sections.map(sectionKey))].sort(),
      partner: {
        id: partner.id,
        name: partner.name,
        logoUrl: partner.logoUrl,
        returnOrigins: partner.returnOrigins,
        supportUrl: partner.supportUrl,
      },
      mode,
      primarySoldOut: !!(showPk && inventory?.get(showPk)?.primarySoldOut),
      promises,
    };
  });
}

/** The buy page's model for an event (by Encore's id) and the page's query; null for an unknown event. */
export async function buyPageModel(eventPk: string, query: BuyPageQuery, db: Db): Promise<BuyPageModel | null> {
  const wanted = wantedQuantity(query);
  const sort = buyPageSort(query);
  const ticket = queryParam(query, 'ticket');
  // Shared by the fans of this show for under a second (offers-cache.ts says how long and why that is correct).
  const view = await sharedBuyPage(
    eventPk,
    {
      show: queryParam(query, 'show'),
      ticket,
      ticketOptionId: queryParam(query, 'ticketOptionId'),
      zone: queryParam(query, 'zone'),
      section: queryParam(query, 'section'),
      quantity: wanted,
      sort,
    },
    db,
  );
  if (!view) return null;
  const [context, named] = await Promise.all([
    showContext(view.event.partnerId, view.show?.showPk, db),
    ticket ? namedTicketOnSale(ticket, eventPk, db) : null,
  ]);
  const all = view.listings;
  const pageCount = Math.max(1, Math.ceil(all.length / BUY_PAGE_SIZE));
  const page = Math.min(requestedPage(query), pageCount);
  return {
    event: view.event,
    show: view.show,
    facets: view.facets,
    held: view.held,
    listings: all.slice((page - 1) * BUY_PAGE_SIZE, page * BUY_PAGE_SIZE),
    count: all.length,
    page,
    pageCount,
    sort,
    wanted,
    ...context,
    named,
    at: new Date(),
  };
}

/**
 * The model's version for a page in `locale`: equal for two models exactly when the page drawn from them is
 * the same. Everything in the model counts but the clock, which counts only through what the page tells by
 * it (whether the buyer's code shows later). Not a secret: every value in it is on the page.
 */
export function buyPageVersion(model: BuyPageModel, locale: string): string {
  const { at, event, ...rest } = model;
  const codeLater = !!model.promises?.codeFrom && model.promises.codeFrom.getTime() > at.getTime();
  // The seat map's markup (up to 1 MB) counts by its hash (svgVersion), not hashed again at every check.
  const seating = event.seating && { ...event.seating, svg: null };
  return createHash('sha256')
    .update(JSON.stringify([locale, codeLater, { ...rest, event: { ...event, seating } }]))
    .digest('base64url')
    .slice(0, 27);
}

/**
 * The version of the shared buy page at a canonical address (server/http/shared-page-address.ts: the path, then
 * `lang=` and the parameters the page reads), as a render now would stamp it; null when there is no page to
 * share there (an unknown event, or a ticket on sale, which redirects to its listing).
 */
export async function buyPageVersionAt(address: string, db: Db): Promise<string | null> {
  const url = new URL(address, 'http://encore');
  const match = /^\/market\/([^/]+)$/.exec(url.pathname);
  const lang = url.searchParams.get('lang');
  if (!match || !lang) return null;
  let eventPk: string;
  try {
    eventPk = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  // The language the page renders in, as the proxy resolves it: `lang=auto` (EVENT_LANG, the address of a fan who
  // chose none) is the event's country's language, else DEFAULT_LANG; the page stamps its version with that. The
  // country is looked up only then: a language Encore speaks decides alone.
  const [model, country] = await Promise.all([
    buyPageModel(eventPk, Object.fromEntries(url.searchParams), db),
    supportedLocale(lang) ? null : eventCountryOfPage(url.pathname, db).catch(() => null),
  ]);
  if (!model || model.named?.listingId) return null;
  return buyPageVersion(model, resolveLocale({ lang, country }));
}
