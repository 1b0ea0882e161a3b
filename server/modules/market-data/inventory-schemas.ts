import { z } from 'zod';
import { atLeastOneOf, documentAs } from '@/server/lib/json-schema';
import { eventResponse } from '@/server/modules/catalog/schemas';

/* Wire shapes of the inventory API (spec "Market data: inventory", "Inventory object"). Pure zod. */

const count = (what: string) => z.int().min(0).max(100_000_000).meta({ description: what });
const showFields = {
  releasedTickets: count('Tickets released for sale (≥ 0)').optional(),
  reservedSpace: count('Reserved, not purchasable (≥ 0)').optional(),
  soldOut: z.boolean().optional(),
  soldPercentage: z.number().min(0).max(100).optional().meta({ description: '0 to 100' }),
};

/** The Inventory object; every field optional ("send only what changes"); unknown fields are refused. */
export const inventoryBody = z
  .strictObject({ capacity: count('Event-level only').optional(), ...showFields })
  .meta({ id: 'Inventory' });
export type InventoryBody = z.output<typeof inventoryBody>;

/**
 * A detail's inventory: the Inventory object without capacity (event-level only); unknown fields refused (by the
 * refinement, with a message of its own for capacity; the document says it as a strict object).
 */
const detailInventory = documentAs(
  z.looseObject(showFields).superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (key in showFields) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: key === 'capacity' ? 'is event-level only (PUT …/inventory)' : 'is not an inventory field',
      });
    }
  }),
  z.strictObject(showFields).meta({ description: 'The Inventory object without `capacity` (event-level only)' }),
);

export const inventoryDetailItem = z
  .object({
    showId: z.string().min(1).max(200),
    ticketOptionId: z.string().min(1).max(200).optional(),
    priceTypeId: z.string().min(1).max(200).optional(),
    inventory: detailInventory,
  })
  .superRefine((item, ctx) => {
    if (!item.ticketOptionId && !item.priceTypeId)
      ctx.addIssue({ code: 'custom', path: ['ticketOptionId'], message: 'or priceTypeId (or both) is required' });
  })
  .meta(atLeastOneOf('ticketOptionId', 'priceTypeId'));
export type InventoryDetailItem = z.output<typeof inventoryDetailItem>;

const details = z.array(inventoryDetailItem).min(1, 'at least one item is required').max(1000, 'at most 1000 items');
/** The array as the guide sends it, or `{ items: [...] }` as the reference lists it (unwrapped first). */
export const inventoryDetailsBody = documentAs(
  z
    .preprocess(
      (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'items' in v ? (v as { items: unknown }).items : v),
      details,
    )
    .meta({ description: 'An array of items, or `{ "items": [...] }`' }),
  z.xor([details, z.object({ items: details })]).meta({ description: 'An array of items, or `{ "items": [...] }`' }),
);

export const inventoryParams = z.object({ externalReferenceId: z.string().min(1).max(200) });
export const inventoryQuery = z.object({
  showId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'The show; required when the event has more than one show' }),
});

const showInventory = z.object({
  showId: z.string(),
  releasedTickets: z.number().nullable(),
  reservedSpace: z.number().nullable(),
  soldOut: z.boolean().nullable(),
  soldPercentage: z.number().nullable(),
  details: z.array(
    z.object({
      ticketOptionId: z.string().nullable(),
      priceTypeId: z.string().nullable(),
      releasedTickets: z.number().nullable(),
      reservedSpace: z.number().nullable(),
      soldOut: z.boolean().nullable(),
      soldPercentage: z.number().nullable(),
    }),
  ),
});

export const eventInventoryResponse = z.object({
  capacity: z.number().nullable(),
  shows: z.array(showInventory),
});
export type EventInventory = z.output<typeof eventInventoryResponse>;

/** The event with all its data, and the inventory the partner reported for it. */
export const eventWithInventory = eventResponse
  .extend({ inventory: eventInventoryResponse })
  .meta({ id: 'EventInventory' });
