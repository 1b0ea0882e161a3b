import { z } from 'zod';
import { CHANNEL_LISTING_STATUSES, CHANNEL_SALE_STATUSES } from '@/db/schema/channels';
import { defineRoute } from '@/server/lib/contract';
import { atLeastOneOf, documentAs, NOT_BLANK } from '@/server/lib/json-schema';
import { channelsMeResponse } from '@/server/modules/partners/schemas';

/*
 * Wire shapes of the Channels API (pure zod). A channel names the partner's catalogue with the partner's
 * ids (event externalReferenceId, showId, ticketOptionId, priceTypeId) and its listings with its own ids.
 * Money is in major units of `currency`, like every price of the API.
 */

const MAX_CHANNEL_LISTINGS_PER_REQUEST = 1000;
const MAX_TICKETS_PER_CHANNEL_LISTING = 50;

const id = (what: string) => z.string().trim().min(1).max(200).meta({ description: what, pattern: NOT_BLANK });
const seatText = z.string().trim().min(1).max(100).meta({ pattern: NOT_BLANK });

const channelListingId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'use letters, digits and . _ : - only')
  .meta({
    description: "The channel's own id of the listing (the upsert key)",
    example: 'RH-88123',
    // The regex is checked on the trimmed id.
    pattern: '^\\s*[A-Za-z0-9._:-]+\\s*$',
  });

const channelSeat = z
  .strictObject({
    ticketId: id("The partner's ticketId, when the channel knows it").optional(),
    section: seatText.optional(),
    row: seatText.optional(),
    seat: seatText.optional(),
    door: seatText.optional(),
  })
  .meta({ id: 'ChannelSeat', description: 'One ticket of the listing and its seat, as buyers will see it' });

const listingFields = {
  eventId: id("The partner's event (its externalReferenceId)"),
  showId: id('A show of that event'),
  ticketOptionId: id('A ticket option of that show'),
  priceTypeId: id('A price type of that show (optional)').optional(),
  quantity: z
    .number()
    .int()
    .min(1)
    .max(MAX_TICKETS_PER_CHANNEL_LISTING)
    .optional()
    .meta({ description: 'How many tickets; optional when `seats` lists them (then it must equal their count)' }),
  seats: z
    .array(channelSeat)
    .min(1)
    .max(MAX_TICKETS_PER_CHANNEL_LISTING)
    .optional()
    .meta({ description: 'The tickets one by one, with their seats' }),
  price: z
    .number()
    .positive()
    .max(100_000_000)
    .meta({ description: 'Price per ticket in major units of `currency`', example: 85000 }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')
    .meta({ description: "ISO 4217; must be the ticket option's currency", example: 'ARS' }),
  soldWhole: z
    .boolean()
    .default(false)
    .meta({ description: 'true: a buyer takes all the tickets at once; false (default): buyers may take some' }),
};

const needsCount = (b: { quantity?: number; seats?: unknown[] }, ctx: z.RefinementCtx) => {
  if (b.quantity === undefined && !b.seats)
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'quantity or seats is required' });
  if (b.quantity !== undefined && b.seats && b.seats.length !== b.quantity)
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'must equal the number of seats' });
};

/** `PUT /v1/channels/listings/{listingId}`: the listing without its id (the path names it). */
export const channelListingBody = z
  .strictObject(listingFields)
  .superRefine(needsCount)
  .meta({ id: 'ChannelListingInput', ...atLeastOneOf('quantity', 'seats') });
export type ChannelListingBody = z.output<typeof channelListingBody>;

/** One item of `POST /v1/channels/listings/bulk`: the listing with its id. */
export const channelListingItem = z
  .strictObject({ listingId: channelListingId, ...listingFields })
  .superRefine(needsCount)
  .meta({ id: 'ChannelListingItem', ...atLeastOneOf('quantity', 'seats') });

const BULK_DESCRIPTION = `Up to ${MAX_CHANNEL_LISTINGS_PER_REQUEST} listings (ChannelListingItem), each validated on its own`;
/** Items are checked one by one by the module (each refused one named by its index); the document shows their schema. */
export const channelListingsBulkBody = z
  .strictObject({
    listings: documentAs(
      z
        .array(z.unknown())
        .min(1, 'at least one listing is required')
        .max(MAX_CHANNEL_LISTINGS_PER_REQUEST, `at most ${MAX_CHANNEL_LISTINGS_PER_REQUEST} listings per request`)
        .meta({ description: BULK_DESCRIPTION }),
      z.array(channelListingItem).min(1).max(MAX_CHANNEL_LISTINGS_PER_REQUEST).meta({ description: BULK_DESCRIPTION }),
    ),
  })
  .meta({ id: 'ChannelListingsBulk' });

export const channelListingParams = z.object({ listingId: channelListingId });

export const channelListingStatus = z.enum(CHANNEL_LISTING_STATUSES);

export const channelListingsQuery = z.object({
  status: channelListingStatus.optional().meta({ description: 'Only listings in this state' }),
  eventId: id('Only listings of this event (externalReferenceId)').optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const channelListingResponse = z
  .object({
    listingId: z.string().meta({ description: "The channel's id" }),
    id: z.string().meta({ description: "Encore's id (`chl_…`)" }),
    status: channelListingStatus.meta({
      description:
        'ACTIVE: on sale (maybe partly sold) · RESERVED: a buyer is paying for (part of) it · SOLD: every ticket · ' +
        'UNLISTED: the market took it off sale (resale or protection turned off for the show, channel disabled); ' +
        'a PUT lists it again · CANCELLED: deleted, or the show ended',
    }),
    eventId: z.string(),
    showId: z.string(),
    ticketOptionId: z.string(),
    priceTypeId: z.string().nullable(),
    quantity: z.number().int(),
    quantitySold: z.number().int().meta({ description: 'How many of its tickets were bought' }),
    seats: z.array(channelSeat),
    soldWhole: z.boolean(),
    currency: z.string(),
    price: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ChannelListing' });
export type ChannelListingView = z.infer<typeof channelListingResponse>;

export const channelListingsPage = z
  .object({
    items: z.array(channelListingResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'ChannelListingsPage' });

export const bulkResult = z
  .object({ stored: z.number().int().meta({ description: 'How many listings were stored (all of them)' }) })
  .meta({ id: 'ChannelListingsBulkResult' });

export const channelSaleStatus = z.enum(CHANNEL_SALE_STATUSES);

export const channelSaleParams = z.object({
  saleId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .meta({ description: 'The sale (`chs_…`)', example: 'chs_2Fh7kQ9mW3xT5vB8nL1p', pattern: NOT_BLANK }),
});

export const channelSalesQuery = z.object({
  status: channelSaleStatus.optional().meta({ description: 'Only sales in this state' }),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const fulfilmentBody = z
  .object({
    ticketIds: z
      .array(id("A partner's ticketId now handed to the buyer"))
      .min(1, 'must name the tickets handed over')
      .max(MAX_TICKETS_PER_CHANNEL_LISTING)
      .meta({ description: "The partner's tickets handed to the buyer: exactly the sale's quantity" }),
  })
  .strict()
  .meta({ id: 'ChannelFulfilment' });

export const channelSaleResponse = z
  .object({
    saleId: z.string().meta({ description: 'The sale (`chs_…`)' }),
    status: channelSaleStatus.meta({
      description:
        'PENDING_FULFILMENT: bought, waiting for the channel to name the tickets · FULFILLED: the buyer owns them · ' +
        'REFUNDED: not fulfilled by `fulfilBy`; the buyer got this part back and the channel is not paid',
    }),
    listingId: z.string().meta({ description: "The channel's listing id" }),
    eventId: z.string(),
    showId: z.string(),
    ticketOptionId: z.string(),
    priceTypeId: z.string().nullable(),
    quantity: z.number().int().meta({ description: 'Tickets bought' }),
    seats: z.array(channelSeat).optional().meta({ description: 'The seats the listing gave this part (webhook)' }),
    buyerEmail: z.string().meta({ description: 'The buyer: the new owner of the tickets' }),
    currency: z.string(),
    price: z.number().meta({ description: 'Per ticket' }),
    amount: z.number().meta({ description: 'Price × quantity' }),
    payout: z.number().meta({ description: "The channel's payout for the sale, fees deducted" }),
    fulfilBy: z.string().meta({ description: 'Name the tickets before this, or the buyer is refunded' }),
    fulfilmentUrl: z.string().meta({ description: 'Where to POST the tickets' }),
    ticketIds: z.array(z.string()),
    fulfilledAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ChannelSale' });
export type ChannelSaleView = z.infer<typeof channelSaleResponse>;

export const channelSalesPage = z
  .object({
    items: z.array(channelSaleResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'ChannelSalesPage' });

/**
 * The Channels API (an external platform pushes its resale listings) is opened by `sk_ch_` keys only.
 * Its listing paths are not shown in the spec; this endpoint lets a channel check its key.
 */
export const channelsMeRoute = defineRoute({
  method: 'GET',
  path: '/v1/channels/me',
  operationId: 'getChannelsMe',
  tag: 'Channels',
  summary: 'The partner and channel a channels key belongs to',
  auth: 'channels',
  response: channelsMeResponse,
  examples: {
    response: {
      partnerId: 'ptr_7Qm2kX9aB4cD5eF6gH7i',
      name: 'Andes Tickets',
      keyPrefix: 'sk_ch_Xy7zQw',
      keyKind: 'channels',
      mode: 'live',
      channelId: 'chn_4kT9wQ2mZ8xY1vB3nR5s',
      channelName: 'Resale Hub',
    },
  },
});
