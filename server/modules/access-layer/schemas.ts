import { z } from 'zod';
import { langParam } from '@/server/modules/tickets/schemas';

/*
 * Wire shapes of the smart access layer (spec "Smart access layer", "Access-layer objects"). Pure zod.
 */

const partnerId = (what: string) => z.string().min(1).max(200).meta({ description: what });

/** Tickets per tickets-mode request (and orders per orders-mode request): Encore's limit, the spec gives none. */
export const MAX_ACCESS_LAYER_TICKETS = 5000;
export const MAX_ACCESS_LAYER_ORDERS = 1000;

export const CTA_KEYS = ['SELL', 'EDIT', 'DETAILS', 'P2P', 'SHARE', 'PENDING_PAYOUT_INFO', 'MANAGE'] as const;
export type CtaKey = (typeof CTA_KEYS)[number];
export const SELL_STATUSES = ['SELLABLE', 'NOT_SELLABLE', 'FOR_SALE', 'SOLD', 'MIXED'] as const;

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
  });

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
  .meta({ id: 'SellAccessLayerRequest' });
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
    components: z.array(z.looseObject({ type: z.string() })).optional(),
    soldTickets: z.array(soldTicket).optional(),
    soldOrders: z
      .array(z.object({ orderId: z.string(), tickets: z.array(soldTicket) }))
      .optional()
      .meta({ description: "The seller's sold tickets grouped by order (tickets without an order are left out)" }),
  })
  .meta({ id: 'SellAccessLayer' });
export type SellAccessLayerResponse = z.output<typeof sellAccessLayerResponse>;
