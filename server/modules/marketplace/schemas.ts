import { z } from 'zod';
import { LISTING_STATUSES } from '@/db/schema/marketplace';
import { langParam as ticketsLangParam } from '@/server/modules/tickets/schemas';

/*
 * Wire shapes of the marketplace operations (pure zod: client components may import this file). Money is
 * answered in major units of `currency`, like every price of the API.
 */

const partnerIdText = (what: string) => z.string().min(1).max(200).meta({ description: what });
const email = z.email().max(254);

const langParam = ticketsLangParam.meta({
  description: 'Language of the page, e.g. `es`, `en`, `pt-BR` (default `en`)',
});

const absoluteUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .max(2000)
  .meta({ description: 'An absolute http(s) URL', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });

const seat = z
  .looseObject({
    ticketId: z
      .string()
      .optional()
      .meta({ description: "The partner's ticketId (a channel's listing names it only if the channel did)" }),
  })
  .meta({
    description:
      'A ticket of the listing with its seat (`props.seating`: section, row, seat, door, image) when the partner sent one',
  });

export const listingResponse = z
  .object({
    id: z.string().meta({ description: 'Encore listing id (`lst_…`)' }),
    status: z.enum(LISTING_STATUSES),
    type: z.enum(['SINGLE', 'PACK']).meta({ description: 'PACK: several tickets of one order, sold whole' }),
    externalReferenceEventId: z.string().nullable(),
    showId: z.string().nullable(),
    ticketOptionId: z.string(),
    priceTypeId: z.string().nullable(),
    ticketIds: z.array(z.string()),
    orderId: z.string().nullable(),
    currency: z.string(),
    price: z.number().nullable().meta({ description: 'Asking price per ticket' }),
    buyerFee: z.number().nullable().meta({ description: "Buyer's service fee per ticket" }),
    buyerTotal: z.number().nullable().meta({ description: 'What a buyer pays for the whole listing' }),
    sellerPayout: z
      .number()
      .nullable()
      .meta({ description: 'What the seller receives for the whole listing, fees deducted' }),
    seats: z.array(seat),
    sellerEmail: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Listing' });

export const listedTicketResponse = z
  .object({
    listingId: z.string(),
    type: z.enum(['SINGLE', 'PACK']),
    externalReferenceEventId: z.string(),
    showId: z.string(),
    ticketOptionId: z.string(),
    priceTypeId: z.string().nullable(),
    ticketCount: z.number().int(),
    currency: z.string(),
    price: z.number().nullable().meta({ description: 'Price per ticket' }),
    buyerFee: z.number().nullable().meta({ description: "Buyer's service fee per ticket, shown up front" }),
    pricePerTicketWithFees: z.number().nullable(),
    total: z.number().nullable().meta({ description: 'What the buyer pays for the whole listing' }),
    seats: z.array(seat),
    source: z.enum(['FAN', 'CHANNEL']).meta({
      description:
        "FAN: a fan's listing of the partner's tickets · CHANNEL: an external platform's listing (Channels API); " +
        'its tickets are handed to the buyer after the purchase',
    }),
  })
  .meta({ id: 'ListedTicket' });

export const buyIntentionRequest = z
  .object({
    items: z
      .array(z.string().min(1).max(100))
      .min(1, 'must name at least one listing')
      .max(50, 'at most 50 listings')
      .meta({
        description: 'Listing ids from the listed-tickets endpoint: of one event, one show and one ticket option',
      }),
    user: email.meta({ description: "The buyer's e-mail" }),
  })
  .meta({ id: 'BuyIntentionRequest' });

export const buyIntentionResponse = z
  .object({
    id: z.string().meta({ description: 'Encore buy intention id (`bi_…`)' }),
    status: z.enum(['PENDING', 'COMPLETED', 'EXPIRED', 'CANCELLED']),
    items: z.array(z.string()),
    user: z.string(),
    currency: z.string(),
    subtotal: z.number().nullable(),
    buyerFee: z.number().nullable(),
    total: z.number().nullable(),
    expiresAt: z.string().meta({ description: 'The hold ends then (BUY_INTENTION_MINUTES after creation)' }),
    paymentUrl: z.url().meta({ description: 'Where the buyer pays' }),
    reason: z.string().nullable().meta({ description: 'Why a paid purchase was refused and refunded' }),
  })
  .meta({ id: 'BuyIntention' });

/** `loginTrust[withMethod]=email&loginTrust[user]=<email>`: the answered URL signs that user in (anchor notes). */
const loginTrustQuery = {
  'loginTrust[withMethod]': z.enum(['email']).optional().meta({ description: 'How the user is trusted: `email`' }),
  'loginTrust[user]': email.optional().meta({ description: 'The user the URL signs in (with loginTrust[withMethod])' }),
};

export const buyingFlowQuery = z
  .object({
    externalReferenceEventId: partnerIdText('The event, by the partner id'),
    showId: partnerIdText('The show, by the partner id'),
    returnTo: absoluteUrl.optional().meta({
      description:
        "Back button and end of the flow (required; `returnURL` is accepted as its synonym). On one of the partner's allowed return origins when staff have set them, else 400",
    }),
    returnURL: absoluteUrl.optional().meta({ description: 'Synonym of returnTo' }),
    lang: langParam.optional(),
    ticketOptionId: partnerIdText('Show only this ticket option').optional(),
    ...loginTrustQuery,
  })
  .superRefine((q, ctx) => {
    if (!q.returnTo && !q.returnURL) ctx.addIssue({ code: 'custom', path: ['returnTo'], message: 'is required' });
    if (Boolean(q['loginTrust[user]']) !== Boolean(q['loginTrust[withMethod]'])) {
      ctx.addIssue({ code: 'custom', path: ['loginTrust[user]'], message: 'and loginTrust[withMethod] go together' });
    }
  });

/** The selling flow's way back to the partner (optional, unlike the buying flow's): checked like the buying flow's. */
const sellingReturnQuery = {
  returnTo: absoluteUrl.optional().meta({
    description:
      "Optional: the back link on every selling step (sell page, done page, the listing's page); `returnURL` is accepted as its synonym. On one of the partner's allowed return origins when staff have set them, else 400",
  }),
  returnURL: absoluteUrl.optional().meta({ description: 'Synonym of returnTo' }),
};
export const sellingFlowQuery = z.object({
  ticketId: partnerIdText('The ticket, by the partner id'),
  lang: langParam.optional(),
  ...sellingReturnQuery,
});
export const orderSellingFlowQuery = z.object({
  orderId: partnerIdText('The order, by the partner id'),
  lang: langParam.optional(),
  ...sellingReturnQuery,
});
export const listingDetailsQuery = z.object({
  ticketId: partnerIdText('The ticket, by the partner id'),
  sellerEmail: email.optional().meta({ description: "Only the seller's listing" }),
});
export const listingByTicketQuery = z.object({
  sellerEmail: email.optional().meta({ description: "Only the seller's listing" }),
});
export const ticketParams = z.object({ ticketId: partnerIdText('The ticket, by the partner id') });
export const listedTicketsParams = z.object({ eventId: partnerIdText("The event's externalReferenceId") });
export const listedTicketsQuery = z.object({ showId: partnerIdText('Only this show').optional() });

export const checkoutUrlRequest = z
  .object({
    listingIds: z
      .array(z.string().min(1).max(100))
      .min(1, 'must name at least one listing')
      .max(50, 'at most 50 listings')
      .meta({
        description: 'Listing ids from the listed-tickets endpoint: of one event, one show and one ticket option',
      }),
    loginTrust: z
      .object({ withMethod: z.enum(['email']), user: email })
      .optional()
      .meta({ description: 'Makes the answered URL sign this user in (a one-time token)' }),
  })
  .meta({ id: 'CheckoutUrlRequest' });

/* ---------- Fan selling pages ---------- */

/** What the seller's payout is made of, per ticket, in minor units (pure: the price field's live preview). */
export interface PayoutModel {
  sellerFeePercent: number;
  sellerFeeFixedMinor: number;
  /** The partner's share of a resale: a percentage of the price, or a fixed amount per ticket. */
  primarySalesFee: { type: 'PERCENTAGE'; value: number } | { type: 'FIXED'; minor: number } | null;
  /** The payout is rounded down to a multiple of this (what the provider pays out: TWD 100); absent: 1. */
  payoutStepMinor?: number;
}

/** Payout per ticket for an asking price, as fees.ts `sellerPayoutMinor` computes it at sale time. */
export function payoutPreviewMinor(model: PayoutModel, priceMinor: number): number {
  const sellerFee = Math.round((priceMinor * model.sellerFeePercent) / 100) + model.sellerFeeFixedMinor;
  const primary = !model.primarySalesFee
    ? 0
    : model.primarySalesFee.type === 'PERCENTAGE'
      ? Math.round((priceMinor * model.primarySalesFee.value) / 100)
      : model.primarySalesFee.minor;
  const step = model.payoutStepMinor ?? 1;
  return Math.floor(Math.max(0, priceMinor - sellerFee - primary) / step) * step;
}

/** The fan's e-mail field of a peer-to-peer transfer. */
export const transferEmail = email;

const feePercent = z.number().min(0, 'At least 0').max(100, 'At most 100');
const feeFixed = z.number().min(0, 'At least 0').max(1_000_000, 'At most 1,000,000');
/** A partner's market terms as staff set them (the fees form). */
export const marketTermsInput = z.object({
  partnerId: z.string().min(1),
  buyerFeePercent: feePercent,
  buyerFeeFixed: feeFixed,
  sellerFeePercent: feePercent,
  sellerFeeFixed: feeFixed,
  payoutDelayDays: z.number().int('Whole days').min(0, 'At least 0').max(365, 'At most 365'),
});
