import type { DbOrTx } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { defaultLocale, supportedLocale, translator } from '@/server/lib/i18n';
import { issueOneTimeTokens, ONE_TIME_TOKEN_PARAM } from '@/server/modules/fans';
import {
  orderListingStates,
  type SellerItem,
  type SellerItemState,
  sellerItemStates,
  sellerItemStatesWith,
  type SoldTicket,
  soldTicketsOf,
} from '@/server/modules/fan-pages';
import { payoutStatus } from '@/server/modules/payments';
import { bannerComponents, sellBannerComponentsOf, sellBannersFor } from './banners';
import type { CallToAction, CtaKey, SellAccessLayerRequest, SellAccessLayerResponse } from './schemas';

/*
 * POST /v1/wrapper/accesslayer, the sell access layer: for the tickets (or orders) a partner shows its
 * user, each one's sell status and the actions Encore offers, as buttons the partner renders. Rules
 * (spec "Smart access layer"):
 *  - eligibility is evaluated on every call (resale rules in force, show, ticket state, listings);
 *  - SELLABLE → SELL · FOR_SALE → EDIT, P2P · SOLD → DETAILS · NOT_SELLABLE → none;
 *  - PENDING_PAYOUT_INFO beside the others while the seller has listed or sold tickets and no active
 *    payout account (never in orders mode);
 *  - `sync` false for a ticket Encore does not know: its SELL URL makes the selling flow synchronise it.
 * It is the hot path for large requests: a fixed number of queries whatever the number of tickets.
 */

type Status = 'SELLABLE' | 'NOT_SELLABLE' | 'FOR_SALE' | 'SOLD';

interface Cta {
  key: CtaKey;
  path: string;
  params?: Record<string, string>;
  enabled?: boolean;
}

/** Builds the answer's CTAs: texts in the request language, absolute URLs, one-time tokens when asked. */
export class CtaBuilder {
  private readonly pending: { cta: Cta; out: CallToAction }[] = [];
  private readonly t: ReturnType<typeof translator<'accessLayer'>>;
  /** Each key's text, formatted once per request (a thousand tickets share a handful of labels). */
  private readonly texts = new Map<CtaKey, string>();

  /**
   * `lang`: the partner's; without one, the texts are in the deployment's default language and the links
   * carry none, so each page opens in the fan's own (remembered, browser, the event's country).
   */
  constructor(private readonly lang: string | undefined) {
    this.t = translator(supportedLocale(lang) ?? defaultLocale(), 'accessLayer');
  }

  private text(key: CtaKey): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = this.t(`cta.${key}`);
      this.texts.set(key, text);
    }
    return text;
  }

  make(cta: Cta): CallToAction {
    const out: CallToAction = { key: cta.key, text: this.text(cta.key), url: '', enabled: cta.enabled ?? true };
    this.pending.push({ cta, out });
    return out;
  }

  /** Fills every URL; with `autologin`, each carries a fresh token for the user (one insert for all). */
  async finish(partnerId: string, user: string, autologin: boolean, db: DbOrTx) {
    const tokens = autologin ? await issueOneTimeTokens(partnerId, user, this.pending.length, db) : [];
    const base = publicBaseUrl();
    const lang = this.lang === undefined ? '' : `&lang=${encodeURIComponent(this.lang)}`;
    this.pending.forEach(({ cta, out }, i) => {
      // Paths are built from Encore's ids; the query is encoded here (the URL class cost ~5 µs a link). Each
      // parameter is written `&name=value`; the first `&` becomes the `?`.
      let query = '';
      for (const [k, v] of Object.entries(cta.params ?? {})) query += `&${k}=${encodeURIComponent(v)}`;
      query += lang;
      if (autologin) query += `&${ONE_TIME_TOKEN_PARAM}=${tokens[i]}`;
      out.url = query ? `${base}${cta.path}?${query.slice(1)}` : `${base}${cta.path}`;
    });
  }
}

/** The CTAs of one ticket's state (spec rule 2), without PENDING_PAYOUT_INFO. */
function ticketCtas(partnerId: string, s: SellerItemState, b: CtaBuilder): CallToAction[] {
  switch (s.status) {
    case 'SELLABLE':
      if (s.ticketPk) return [b.make({ key: 'SELL', path: `/sell/${s.ticketPk}` })];
      // Unknown to Encore: the partner's resale page for this fan, asked to synchronise the ticket first.
      return [
        b.make({
          key: 'SELL',
          path: `/resale/${encodeURIComponent(partnerId)}`,
          params: { sync: '1', ticketId: s.item.ticketId, eventId: s.item.eventRef, showId: s.item.showId },
        }),
      ];
    case 'FOR_SALE':
      return [
        b.make({ key: 'EDIT', path: `/listing/${s.listingId}` }),
        b.make({ key: 'P2P', path: `/listing/${s.listingId}/transfer`, enabled: s.transferAllowed }),
      ];
    case 'SOLD':
      return [b.make({ key: 'DETAILS', path: `/listing/${s.listingId}` })];
    default:
      return [];
  }
}

interface Unit {
  status: Status;
  listingId: string | null;
}

/**
 * An order's status and CTA from its tickets (spec rule 5, in its order). A "group" is a listing: the
 * tickets sold together.
 */
export function aggregateOrder(units: Unit[]): { status: Status; cta: CtaKey | null; listingId: string | null } {
  const sellable = units.filter((u) => u.status === 'SELLABLE').length;
  const placed = units.filter((u) => u.status === 'FOR_SALE' || u.status === 'SOLD');
  if (!units.length || units.every((u) => u.status === 'NOT_SELLABLE'))
    return { status: 'NOT_SELLABLE', cta: null, listingId: null };
  if (sellable && placed.length) return { status: 'SELLABLE', cta: 'MANAGE', listingId: null };
  if (sellable === units.length) return { status: 'SELLABLE', cta: 'SELL', listingId: null };
  const groups = new Set(placed.map((u) => u.listingId));
  if (groups.size === 1) {
    const listingId = placed[0].listingId;
    if (placed.some((u) => u.status === 'FOR_SALE')) return { status: 'FOR_SALE', cta: 'EDIT', listingId };
    return { status: 'SOLD', cta: 'DETAILS', listingId };
  }
  return { status: 'FOR_SALE', cta: 'MANAGE', listingId: null };
}

/** The distinct shows of these items Encore knows (the banners' scopes). */
function scopesOf(states: SellerItemState[]): { eventPk: string; showPk: string }[] {
  const seen = new Map<string, { eventPk: string; showPk: string }>();
  for (const s of states) if (s.eventPk && s.showPk) seen.set(s.showPk, { eventPk: s.eventPk, showPk: s.showPk });
  return [...seen.values()];
}

function groupSales(sold: SoldTicket[]) {
  const byOrder = new Map<string, SoldTicket[]>();
  for (const s of sold) {
    if (!s.orderId) continue;
    const list = byOrder.get(s.orderId) ?? [];
    list.push(s);
    byOrder.set(s.orderId, list);
  }
  return [...byOrder].map(([orderId, tickets]) => ({ orderId, tickets }));
}

/** The sell access layer's answer for one request (the body already validated). */
export async function sellAccessLayer(
  partnerId: string,
  body: SellAccessLayerRequest,
  lang: string | undefined,
  db: DbOrTx,
  opts: { now?: Date } = {},
): Promise<SellAccessLayerResponse> {
  const now = opts.now ?? new Date();
  const user = body.user.trim().toLowerCase();
  const b = new CtaBuilder(lang);
  const out: SellAccessLayerResponse = { user: body.user };

  const wantSales = body.includeTicketSales || body.includeOrderSales;
  const salesP = wantSales ? soldTicketsOf(partnerId, user, {}, db) : Promise.resolve([]);

  const ask: Ask = { partnerId, user, b, now, db };
  if (body.tickets) Object.assign(out, await ticketsAnswer(ask, body.tickets));
  else if (body.orders) Object.assign(out, await ordersAnswer(ask, body.orders));

  if (wantSales) {
    const sold = await salesP;
    if (body.includeTicketSales) out.soldTickets = sold;
    if (body.includeOrderSales) out.soldOrders = groupSales(sold);
  } else {
    await salesP;
  }
  await b.finish(partnerId, user, body.autologin === true, db);
  return out;
}

/** One request's asker and the means to answer it. */
interface Ask {
  partnerId: string;
  /** The seller, as stored (trimmed, lower case). */
  user: string;
  b: CtaBuilder;
  now: Date;
  db: DbOrTx;
}

/** Tickets mode: each ticket's status and CTAs, and the banners of their shows. */
async function ticketsAnswer(
  { partnerId, user, b, now, db }: Ask,
  tickets: NonNullable<SellAccessLayerRequest['tickets']>,
): Promise<Pick<SellAccessLayerResponse, 'tickets' | 'components'>> {
  const items: SellerItem[] = tickets.map((t) => ({
    eventRef: t.eventId,
    showId: t.showId,
    ticketId: t.ticketId,
    ticketOptionId: t.ticketOptionId,
    priceTypeId: t.priceTypeId ?? null,
  }));
  // The banners' reads go beside the states' second wave (the shows of the items' events are known by then).
  const [{ states, beside: bannerData }, payout] = await Promise.all([
    sellerItemStatesWith(partnerId, user, items, (shows) => sellBannersFor(partnerId, shows, db), now, db),
    payoutStatus(partnerId, user, db),
  ]);
  const payoutMissing = payout !== 'active';
  return {
    tickets: states.map((s) => {
      const ctas = ticketCtas(partnerId, s, b);
      if (payoutMissing && (s.status === 'FOR_SALE' || s.status === 'SOLD') && s.listingId)
        ctas.push(b.make({ key: 'PENDING_PAYOUT_INFO', path: `/listing/${s.listingId}`, params: { payout: '1' } }));
      return {
        status: s.status,
        ticketId: s.item.ticketId,
        ticketOptionId: s.item.ticketOptionId,
        priceTypeId: s.item.priceTypeId ?? null,
        sync: s.known,
        callToActions: ctas,
      };
    }),
    components: sellBannerComponentsOf(bannerData, {
      partnerId,
      scopes: scopesOf(states),
      hasSellableTickets: states.some((s) => s.status === 'SELLABLE'),
    }),
  };
}

type Orders = NonNullable<SellAccessLayerRequest['orders']>;

/** Orders mode: each order's status and CTA from its tickets, and the banners of their shows. */
async function ordersAnswer(
  { partnerId, user, b, now, db }: Ask,
  orders: Orders,
): Promise<Pick<SellAccessLayerResponse, 'orders' | 'components'>> {
  const orderIds = [...new Set(orders.map((o) => o.orderId))];
  const items = itemsOfOrders(orders);
  const [states, known] = await Promise.all([
    sellerItemStates(
      partnerId,
      user,
      items.map((i) => i.item),
      now,
      db,
    ),
    orderListingStates(partnerId, user, orderIds, db),
  ]);
  const answered = orders.map((o, index) => {
    const units = new Map<string, Unit>();
    states.forEach((s, i) => {
      if (items[i].order === index) units.set(items[i].item.ticketId, { status: s.status, listingId: s.listingId });
    });
    // Every ticket Encore knows of the order that is listed or sold counts too (spec rule 6).
    for (const k of known) {
      if (k.orderId !== o.orderId) continue;
      units.set(k.ticketId, { status: k.status === 'SOLD' ? 'SOLD' : 'FOR_SALE', listingId: k.listingId });
    }
    const agg = aggregateOrder([...units.values()]);
    const first = states.find((s, i) => items[i].order === index && s.ticketPk);
    return { orderId: o.orderId, status: agg.status, callToActions: orderCtas(partnerId, o.orderId, agg, first, b) };
  });
  const components = await bannerComponents(
    {
      partnerId,
      scopes: scopesOf(states),
      hasSellableTickets: answered.some((o) => o.status === 'SELLABLE'),
    },
    db,
  );
  return { orders: answered, components };
}

/** Each order's tickets as the partner sent them: by id, or one per combination (unknown to Encore). */
function itemsOfOrders(orders: Orders) {
  const items: { order: number; item: SellerItem }[] = [];
  orders.forEach((o, order) => {
    if (o.tickets) {
      for (const t of o.tickets)
        items.push({
          order,
          item: {
            eventRef: o.eventId,
            showId: o.showId,
            ticketId: t.ticketId,
            ticketOptionId: t.ticketOptionId,
            priceTypeId: t.priceTypeId ?? null,
          },
        });
    } else {
      (o.combinations ?? []).forEach((c, i) =>
        items.push({
          order,
          item: {
            eventRef: o.eventId,
            showId: o.showId,
            // No ticket id: judged by the show and the rules alone.
            ticketId: `${o.orderId}#${i}`,
            unnamed: true,
            ticketOptionId: c.ticketOptionId,
            priceTypeId: c.priceTypeId ?? null,
          },
        }),
      );
    }
  });
  return items;
}

/** An order's CTA: SELL its first ticket Encore knows (else the resale entry, synchronising the order). */
function orderCtas(
  partnerId: string,
  orderId: string,
  agg: ReturnType<typeof aggregateOrder>,
  first: SellerItemState | undefined,
  b: CtaBuilder,
): CallToAction[] {
  const ctas: CallToAction[] = [];
  if (agg.cta === 'SELL') {
    ctas.push(
      first
        ? b.make({ key: 'SELL', path: `/sell/${first.ticketPk}`, params: { order: '1' } })
        : b.make({
            key: 'SELL',
            path: `/resale/${encodeURIComponent(partnerId)}`,
            params: { sync: '1', orderId },
          }),
    );
  } else if (agg.cta === 'MANAGE') {
    ctas.push(b.make({ key: 'MANAGE', path: `/resale/${encodeURIComponent(partnerId)}` }));
  } else if (agg.cta === 'EDIT' || agg.cta === 'DETAILS') {
    ctas.push(b.make({ key: agg.cta, path: `/listing/${agg.listingId}` }));
  }
  return ctas;
}
