import { z } from 'zod';
import { atLeastOneOf, documentAs, NOT_BLANK, whenField } from '@/server/lib/json-schema';
import { isCurrencyCode } from '@/server/lib/money';

/*
 * Wire shapes of the leads API (spec "Lead (market data)", "Market data: leads"). Pure zod. The buyer
 * identifier rule is checked by the module, which answers the spec's exact message for it.
 */

export const LEAD_TYPES = ['TICKET_HOLDER', 'ABANDONED_CART', 'VIRTUAL_QUEUE', 'WISHLIST'] as const;
const MAX_LEADS_PER_REQUEST = 1000;
/** The spec's message when a lead names no buyer identifier. */
export const BUYER_REQUIRED = 'buyer.email or buyer.phone or buyer.id is required';

const text = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max).meta({ pattern: NOT_BLANK });

export const leadSchema = z
  .object({
    type: z.enum(LEAD_TYPES),
    externalReferenceEventId: text().meta({ description: "The partner's event id" }),
    showId: text().meta({ description: "The show's id (within its event)" }),
    buyer: z
      .object({
        email: z.email().max(254).optional(),
        phone: text(40).optional(),
        id: text().optional(),
        fullName: text(300).optional(),
      })
      .meta({ description: 'At least one of `email`, `phone`, `id`', ...atLeastOneOf('email', 'phone', 'id') }),
    ticketId: text().optional().meta({ description: 'Required for TICKET_HOLDER' }),
    price: z
      .union([z.number().nonnegative().max(1e12), z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'must be a number')])
      .optional()
      .meta({ description: 'Price paid or considered, in major units (required for TICKET_HOLDER)' }),
    currency: z
      .string()
      .refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR or USD')
      .meta({ pattern: '^[A-Z]{3}$' })
      .optional()
      .meta({ description: "ISO 4217 (a code the server knows); default the show's ticket option currency" }),
    ticketOptionId: text().optional(),
    priceTypeId: text().optional(),
    purchaseDate: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'ISO 8601 (also accepted as `date`)' }),
    date: z.iso.datetime({ offset: true }).optional().meta({ description: 'Synonym of purchaseDate' }),
    seating: z.object({ section: text().optional(), row: text().optional(), seat: text().optional() }).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    tags: z.array(text()).max(100).optional(),
    attributes: z.array(text()).max(100).optional(),
  })
  .superRefine((l, ctx) => {
    if (l.type === 'TICKET_HOLDER') {
      if (!l.ticketId) ctx.addIssue({ code: 'custom', path: ['ticketId'], message: 'is required for TICKET_HOLDER' });
      if (l.price === undefined)
        ctx.addIssue({ code: 'custom', path: ['price'], message: 'is required for TICKET_HOLDER' });
    }
  })
  .meta({ id: 'Lead', ...whenField('type', 'TICKET_HOLDER', { required: ['ticketId', 'price'] }) });
export type LeadBody = z.output<typeof leadSchema>;

/** Items are checked one by one by the module (each refused one named by its index); the document shows Leads. */
const BULK_DESCRIPTION = 'Up to 1,000 leads of any types; each is validated on its own';
export const bulkLeadsSchema = documentAs(
  z
    .array(z.unknown())
    .min(1, 'at least one lead is required')
    .max(MAX_LEADS_PER_REQUEST, `at most ${MAX_LEADS_PER_REQUEST} leads per request`)
    .meta({ description: BULK_DESCRIPTION }),
  z.array(leadSchema).min(1).max(MAX_LEADS_PER_REQUEST).meta({ description: BULK_DESCRIPTION }),
);
