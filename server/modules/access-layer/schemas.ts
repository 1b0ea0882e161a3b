import { z } from 'zod';
import { atLeastOneOf } from '@/server/lib/json-schema';
import { ONE_TIME_TOKEN_PATTERN } from '@/server/modules/fans/schemas';
import { langParam } from '@/server/modules/tickets/schemas';

/*
 * Wire shapes of the smart access layer (spec "Smart access layer", "Access-layer objects") and the
 * staff's banner input, plus the one pure function that turns a banner into its `sellBanner` component
 * (the dashboard preview runs it in the browser). No server imports: client components may import this.
 */

const partnerId = (what: string) => z.string().min(1).max(200).meta({ description: what });

/** Tickets per tickets-mode request (and orders per orders-mode request): Encore's limit, the spec gives none. */
const MAX_ACCESS_LAYER_TICKETS = 5000;
const MAX_ACCESS_LAYER_ORDERS = 1000;

export const CTA_KEYS = ['SELL', 'EDIT', 'DETAILS', 'P2P', 'SHARE', 'PENDING_PAYOUT_INFO', 'MANAGE'] as const;
export type CtaKey = (typeof CTA_KEYS)[number];
const SELL_STATUSES = ['SELLABLE', 'NOT_SELLABLE', 'FOR_SALE', 'SOLD', 'MIXED'] as const;

export const callToAction = z
  .object({
    key: z.enum(CTA_KEYS),
    text: z.string().meta({ description: 'Resolved label in the request language' }),
    url: z.string().meta({ description: "Absolute URL of Encore's page for this action" }),
    enabled: z.boolean(),
  })
  .meta({ id: 'CallToAction' });
export type CallToAction = z.output<typeof callToAction>;

const ticketItem = z.object({
  eventId: partnerId("The event, by the partner's id (externalReferenceId)"),
  showId: partnerId("The show, by the partner's id"),
  ticketId: partnerId("The ticket, by the partner's id"),
  ticketOptionId: partnerId("The ticket option, by the partner's id"),
  priceTypeId: partnerId("The price type, by the partner's id").optional(),
});

const orderTicket = z.object({
  ticketId: partnerId("The ticket, by the partner's id"),
  ticketOptionId: partnerId("The ticket option, by the partner's id"),
  priceTypeId: partnerId("The price type, by the partner's id").optional(),
});

const orderItem = z
  .object({
    orderId: partnerId("The order, by the partner's id"),
    eventId: partnerId("The event, by the partner's id (externalReferenceId)"),
    showId: partnerId("The show, by the partner's id"),
    combinations: z
      .array(
        z.object({
          ticketOptionId: partnerId('Ticket option of one ticket of the order'),
          priceTypeId: partnerId('Its price type').optional(),
        }),
      )
      .max(MAX_ACCESS_LAYER_TICKETS)
      .optional()
      .meta({ description: "One entry per ticket of the order (the order's tickets by option and price type)" }),
    tickets: z
      .array(orderTicket)
      .max(MAX_ACCESS_LAYER_TICKETS)
      .optional()
      .meta({ description: 'Alternative to `combinations`: the order’s tickets by id' }),
  })
  .superRefine((o, ctx) => {
    if (!o.combinations && !o.tickets)
      ctx.addIssue({ code: 'custom', path: ['combinations'], message: 'is required (or tickets)' });
  })
  .meta(atLeastOneOf('combinations', 'tickets'));

export const sellAccessLayerRequest = z
  .object({
    user: z.email().max(254).meta({ description: "The seller's e-mail" }),
    includeOrderSales: z
      .boolean()
      .optional()
      .meta({ description: "Add `soldOrders`: the seller's sales grouped by order" }),
    includeTicketSales: z.boolean().optional().meta({ description: "Add `soldTickets`: the seller's sales, flat" }),
    autologin: z
      .boolean()
      .optional()
      .meta({ description: 'Each CTA URL carries its own one-time token signing `user` in (default false)' }),
    tickets: z
      .array(ticketItem)
      .min(1, 'at least one ticket is required')
      .max(MAX_ACCESS_LAYER_TICKETS, `at most ${MAX_ACCESS_LAYER_TICKETS} tickets per request`)
      .optional()
      .meta({ description: 'Tickets mode: the tickets the seller holds' }),
    orders: z
      .array(orderItem)
      .max(MAX_ACCESS_LAYER_ORDERS, `at most ${MAX_ACCESS_LAYER_ORDERS} orders per request`)
      .optional()
      .meta({ description: 'Orders mode: the orders the seller holds' }),
  })
  .superRefine((b, ctx) => {
    if (b.tickets && b.orders)
      ctx.addIssue({ code: 'custom', path: ['orders'], message: 'tickets and orders must not be sent together' });
  })
  .meta({ id: 'SellAccessLayerRequest', not: { required: ['tickets', 'orders'] } });
export type SellAccessLayerRequest = z.output<typeof sellAccessLayerRequest>;

export const sellAccessLayerQuery = z.object({
  lang: langParam.optional().meta({ description: 'Language of the CTA texts and pages (default `en`)' }),
});

const soldTicket = z.object({
  ticketId: z.string(),
  eventId: z.string(),
  showId: z.string(),
  ticketOptionId: z.string(),
  priceTypeId: z.string().nullable(),
  orderId: z.string().nullable(),
  listingId: z.string(),
  price: z.number().meta({ description: 'Price per ticket the buyer paid (major units)' }),
  currency: z.string(),
  soldAt: z.string().nullable(),
});

export const sellAccessLayerResponse = z
  .object({
    user: z.string(),
    tickets: z
      .array(
        z.object({
          status: z.enum(SELL_STATUSES),
          ticketId: z.string(),
          ticketOptionId: z.string(),
          priceTypeId: z.string().nullable(),
          sync: z.boolean().meta({ description: 'Encore knows the ticket; false: the CTA URL synchronises it first' }),
          callToActions: z.array(callToAction),
        }),
      )
      .optional(),
    orders: z
      .array(z.object({ orderId: z.string(), status: z.enum(SELL_STATUSES), callToActions: z.array(callToAction) }))
      .optional(),
    components: z.array(z.lazy(() => sellBannerComponent)).optional(),
    soldTickets: z.array(soldTicket).optional(),
    soldOrders: z
      .array(z.object({ orderId: z.string(), tickets: z.array(soldTicket) }))
      .optional()
      .meta({ description: "The seller's sold tickets grouped by order (tickets without an order are left out)" }),
  })
  .meta({ id: 'SellAccessLayer' });
export type SellAccessLayerResponse = z.output<typeof sellAccessLayerResponse>;

/* ---------- Buy access layer ---------- */

const ACCESS_LAYER_TYPES = ['buy'] as const;

const typeParam = z
  .string({ error: 'is required' })
  .min(1, 'is required')
  .refine((t) => (ACCESS_LAYER_TYPES as readonly string[]).includes(t), { message: 'must be buy' })
  .meta({ description: 'Component family: `buy` (the only value Encore serves)', enum: [...ACCESS_LAYER_TYPES] });

export const buyAccessLayerQuery = z
  .object({
    type: typeParam,
    eventId: partnerId("The event, by the partner's id (required when type is buy)").optional(),
    showId: partnerId("The show, by the partner's id (required when type is buy)").optional(),
    lang: langParam.optional().meta({ description: 'Language of the texts and pages (default `en`)' }),
  })
  .superRefine((q, ctx) => {
    if (q.type !== 'buy') return;
    if (!q.eventId) ctx.addIssue({ code: 'custom', path: ['eventId'], message: 'is required when type is buy' });
    if (!q.showId) ctx.addIssue({ code: 'custom', path: ['showId'], message: 'is required when type is buy' });
  })
  // `type` can only be buy, so the ids are always required: the document marks the three parameters so.
  .meta({ required: ['type', 'eventId', 'showId'] });

export const bulkAccessLayerQuery = z.object({
  type: typeParam,
  lang: langParam.optional().meta({ description: 'Language of the texts and pages (default `en`)' }),
});

export const bulkAccessLayerRequest = z
  .array(
    z.object({
      eventId: partnerId("The event, by the partner's id"),
      showIds: z
        .array(partnerId("A show of the event, by the partner's id"))
        .min(1, 'at least one showId is required')
        .max(100),
    }),
  )
  .min(1, 'at least one event is required')
  .max(100, 'at most 100 events per request')
  .meta({ id: 'BulkAccessLayerRequest' });

const cta = z.object({ text: z.string(), url: z.string(), enabled: z.boolean() });

const buyButton = z.object({
  type: z.literal('button'),
  class: z.literal('buyButton'),
  button: cta.meta({ description: 'Enabled when resale is open for the show and tickets are on sale' }),
});
const soldOutModal = z.object({
  type: z.literal('modal'),
  class: z.literal('soldOutModal'),
  modal: z.object({ title: z.string(), description: z.string(), callToAction: cta }),
});
const resaleBanner = z.object({
  type: z.literal('banner'),
  class: z.literal('resaleBanner'),
  banner: z.object({ title: z.string(), description: z.string(), visible: z.boolean(), callToAction: cta }),
});
const listingsList = z.object({
  type: z.literal('list'),
  class: z.literal('listings'),
  list: z.object({
    items: z.array(
      z.object({
        listingId: z.string(),
        quantity: z.number(),
        ticketOptionId: z.string(),
        price: z.number().meta({ description: 'Per ticket, with the buyer fee (major units)' }),
        currency: z.string(),
        seats: z.array(z.looseObject({})),
        source: z
          .enum(['FAN', 'CHANNEL'])
          .meta({ description: "A fan's listing or an external platform's (Channels API)" }),
        url: z.string().meta({ description: 'Checkout page for this listing' }),
      }),
    ),
  }),
});
const sectionMap = z
  .object({
    type: z.literal('map'),
    class: z.literal('sectionMap'),
    map: z.object({
      visible: z.boolean(),
      image: z.string().nullable().meta({ description: "The event's seat map image URL (`seating.image`)" }),
      svg: z
        .string()
        .nullable()
        .meta({ description: "The event's seat map (`seating.svgCode`) as cleaned when it was written" }),
      url: z.string().meta({ description: "The show's buy page" }),
      sections: z.array(
        z.object({
          sectionId: z
            .string()
            .meta({ description: 'The section as tickets name it (`props.seating.section`) and the SVG marks it' }),
          label: z.string().meta({ description: "The SVG element's `data-label` or `aria-label`, else the section" }),
          available: z.number().int().meta({ description: 'Tickets on sale now in the section' }),
          minPrice: z
            .number()
            .nullable()
            .meta({ description: 'The cheapest per ticket, with the buyer fee (major units); null when none' }),
          currency: z.string().nullable(),
          url: z.string().meta({ description: 'The buy page filtered to this section (`section=`)' }),
        }),
      ),
    }),
  })
  .meta({
    description:
      "The event's seat map with what is on sale in each section (only when the event has `seating`; not in the bulk form)",
  });
const colors = z.object({ background: z.string().optional(), text: z.string().optional() }).optional();
/** A staff-configured banner (spec "Access-layer objects"). */
const sellBannerComponent = z
  .object({
    type: z.literal('banner'),
    class: z.literal('sellBanner'),
    sellBanner: z.object({
      title: z.string(),
      description: z.string(),
      image: z.string().nullable().meta({ description: 'Image URL (https)' }),
      visible: z.boolean().meta({ description: "Whether the banner's visibility rules hold now" }),
      colors,
      callToAction: z.object({ text: z.string(), url: z.string(), enabled: z.boolean(), colors }),
    }),
  })
  .meta({ id: 'SellBannerComponent' });

const market = z
  .object({
    listings: z.number(),
    tickets: z.number(),
    lowestPrice: z.number().nullable().meta({ description: 'Cheapest ticket with the buyer fee (major units)' }),
    currency: z.string().nullable(),
    primarySoldOut: z.boolean().meta({ description: 'The partner reports the show sold out (inventory API)' }),
    resaleEnabled: z.boolean(),
  })
  .meta({ description: 'The show’s resale market the components are built from' });

export const buyAccessLayerResponse = z
  .object({
    eventId: z.string(),
    showId: z.string(),
    market,
    url: z.string().meta({ description: "The buying flow: Encore's market page of the show" }),
    components: z.array(
      z.union([buyButton, soldOutModal, resaleBanner, listingsList, sectionMap, sellBannerComponent]),
    ),
  })
  .meta({ id: 'BuyAccessLayer' });
export type BuyAccessLayerResponse = z.output<typeof buyAccessLayerResponse>;

export const bulkAccessLayerResponse = z.array(
  z.object({
    eventId: z.string(),
    showId: z.string(),
    found: z.boolean().meta({ description: 'false: Encore does not know this event or show (no components)' }),
    market: market.nullable(),
    url: z.string().nullable(),
    components: z.array(z.union([buyButton, soldOutModal, resaleBanner, sellBannerComponent])),
  }),
);

/* ---------- Sell banners ---------- */

/* Staff input for sell banners (dashboard) and the spec's `sellBanner` component. Pure zod. */

const hex = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c');
const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' }).max(2000);
const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), s.nullable());

export const BANNER_PLACEMENTS = ['SELL', 'BUY', 'BOTH'] as const;

export const bannerInput = z.object({
  partnerId: z.string().min(1),
  /** Scope: the partner's event (externalReferenceId) and, within it, a show; both empty = every event. */
  eventRef: optional(z.string().trim().min(1).max(200)),
  showId: optional(z.string().trim().min(1).max(200)),
  placement: z.enum(BANNER_PLACEMENTS),
  title: z.string().trim().min(1, 'Enter a title').max(120, 'At most 120 characters'),
  description: z.string().trim().max(500, 'At most 500 characters'),
  imageUrl: optional(httpsUrl),
  backgroundColor: optional(hex),
  textColor: optional(hex),
  ctaText: z.string().trim().min(1, 'Enter the button text').max(40, 'At most 40 characters'),
  ctaUrl: optional(httpsUrl),
  ctaEnabled: z.boolean(),
  ctaBackgroundColor: optional(hex),
  ctaTextColor: optional(hex),
  onlyWhenPrimarySoldOut: z.boolean(),
  hoursBeforeShow: optional(
    z
      .int('Enter whole hours')
      .min(1, 'At least 1 hour')
      .max(24 * 365, 'At most a year'),
  ),
  onlyForSellersWithSellable: z.boolean(),
  active: z.boolean(),
});
export type BannerInput = z.output<typeof bannerInput>;

export const updateBannerInput = bannerInput.extend({ bannerId: z.string().min(1) });

/** The spec's sellBanner object, as the access layer answers it and the dashboard previews it. */
export interface SellBanner {
  title: string;
  description: string;
  image: string | null;
  visible: boolean;
  colors?: { background?: string; text?: string };
  callToAction: { text: string; url: string; enabled: boolean; colors?: { background?: string; text?: string } };
}

export interface SellBannerComponent {
  type: 'banner';
  class: 'sellBanner';
  sellBanner: SellBanner;
}

/*
 * One function turns a banner's settings into the spec's `sellBanner` component: the access layer
 * answers it and the dashboard preview renders it, so what staff see is what partners get. Pure (no
 * server imports): the editor runs it in the browser on unsaved values.
 */

export interface BannerSettings {
  title: string;
  description: string;
  imageUrl: string | null;
  backgroundColor: string | null;
  textColor: string | null;
  ctaText: string;
  ctaUrl: string | null;
  ctaEnabled: boolean;
  ctaBackgroundColor: string | null;
  ctaTextColor: string | null;
}

function colorPair(background: string | null, text: string | null) {
  if (!background && !text) return undefined;
  return { ...(background ? { background } : {}), ...(text ? { text } : {}) };
}

function sellBannerOf(b: BannerSettings, opts: { visible: boolean; defaultUrl: string }): SellBanner {
  const bannerColors = colorPair(b.backgroundColor, b.textColor);
  const ctaColors = colorPair(b.ctaBackgroundColor, b.ctaTextColor);
  return {
    title: b.title,
    description: b.description,
    image: b.imageUrl,
    visible: opts.visible,
    ...(bannerColors ? { colors: bannerColors } : {}),
    callToAction: {
      text: b.ctaText,
      url: b.ctaUrl ?? opts.defaultUrl,
      enabled: b.ctaEnabled,
      ...(ctaColors ? { colors: ctaColors } : {}),
    },
  };
}

export function toSellBannerComponent(
  b: BannerSettings,
  opts: { visible: boolean; defaultUrl: string },
): SellBannerComponent {
  return { type: 'banner', class: 'sellBanner', sellBanner: sellBannerOf(b, opts) };
}

/** The visibility rules of a banner against one show's state; all rules set must hold. */
export function bannerVisible(
  rules: { onlyWhenPrimarySoldOut: boolean; hoursBeforeShow: number | null; onlyForSellersWithSellable: boolean },
  state: { primarySoldOut: boolean; hoursUntilShow: number; hasSellableTickets: boolean | null },
): boolean {
  if (rules.onlyWhenPrimarySoldOut && !state.primarySoldOut) return false;
  if (rules.hoursBeforeShow !== null && (state.hoursUntilShow <= 0 || state.hoursUntilShow > rules.hoursBeforeShow))
    return false;
  // Only the sell access layer knows the seller's tickets; elsewhere the rule does not apply.
  if (rules.onlyForSellersWithSellable && state.hasSellableTickets === false) return false;
  return true;
}

/* ---------- The fan's resale entry (the sell widget) ---------- */

export const resaleEntryQuery = z.object({
  token: z
    .string()
    .regex(ONE_TIME_TOKEN_PATTERN, 'must be a one-time token (ott_…) as GET /v1/auth/oneTimeToken answers it')
    .meta({
      description: 'A one-time token your server minted for the fan (`GET /v1/auth/oneTimeToken`); read, not spent',
    }),
  autologin: z.enum(['true', 'false']).optional().meta({
    description: '`true`: each CTA URL carries its own fresh one-time token signing the fan in (default `false`)',
  }),
  lang: langParam.optional().meta({ description: 'Language of the texts and pages (default `en`)' }),
});

const resaleEntryReason = z
  .object({
    code: z.string().meta({ description: 'Why the ticket cannot be sold now, e.g. `RESALE_OFF`, `WINDOW_CLOSED`' }),
    text: z.string().meta({ description: 'The reason in the fan’s words, in the request language' }),
  })
  .meta({ id: 'ResaleEntryReason' });

export const resaleEntryResponse = z
  .object({
    unavailable: z.boolean().meta({
      description: 'true when your verification endpoint did not answer: no tickets can be shown (try again later)',
    }),
    url: z.string().meta({ description: "The fan's resale entry page on Encore (every ticket, sell and manage)" }),
    shows: z.array(
      z.object({
        eventId: z.string().meta({ description: 'The event, by your id (externalReferenceId)' }),
        showId: z.string(),
        eventTitle: z.string(),
        showTitle: z.string(),
        startsAt: z.string().meta({ description: 'ISO 8601' }),
        timeZone: z.string().nullable().meta({ description: "The venue's IANA time zone, when known" }),
        tickets: z.array(
          z.object({
            ticketId: z.string(),
            ticketOptionId: z.string(),
            option: z.string().meta({ description: "The ticket option's title" }),
            seat: z
              .object({ section: z.string().optional(), row: z.string().optional(), seat: z.string().optional() })
              .nullable(),
            status: z.enum(['SELLABLE', 'NOT_SELLABLE', 'FOR_SALE', 'SOLD']),
            callToActions: z.array(callToAction),
            reasons: z.array(resaleEntryReason).meta({ description: 'Why not, for a ticket that is not SELLABLE' }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'ResaleEntry' });
export type ResaleEntry = z.output<typeof resaleEntryResponse>;
