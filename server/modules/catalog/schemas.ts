import { z } from 'zod';
import { primarySalesFeeResponse, primarySalesFeeSchema } from '@/server/modules/partners/schemas';
import { documentAs, NOT_BLANK } from '@/server/lib/json-schema';
import { decimalString, isCurrencyCode, toMinorUnits } from '@/server/lib/money';
import { sanitizeSvg } from '@/server/lib/svg';

/*
 * The catalog as partners send it (`POST /v1/events`, `PUT /v1/events`) and as we answer it.
 *
 * Input objects strip unknown keys rather than refusing them: partners already integrated with the
 * reference product send extra fields, and their payloads should work unchanged (anchor notes).
 * Input and response variants are separate schemas with separate OpenAPI ids (`ShowInput` / `Show`),
 * because a response makes defaults explicit (always present) where the input leaves them optional.
 * Rules (`POST /v1/events/rules`) live elsewhere.
 */

/* ---------- message helpers ---------- */

/**
 * A custom message for a bad value, but zod's own message when the value is missing, so the envelope
 * keeps saying "x is required" (see `server/http/request.ts`).
 */
function unlessMissing(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? undefined : message);
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: unlessMissing(`must be one of: ${values.join(', ')}`) });
}

const text = () => z.string({ error: unlessMissing('must be a string') });
/** Titles are what a buyer sees: blank is refused. */
const title = () => text().trim().min(1, 'must not be empty').meta({ pattern: NOT_BLANK });
/** Partner identifiers are kept exactly as sent (no trimming: they are the partner's keys). */
// At most 200 characters: they are keys of unique indexes (PostgreSQL refuses index entries over ~2.7 kB).
const partnerId = () => text().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const flag = () => z.boolean({ error: unlessMissing('must be true or false') });
const count = () =>
  z
    .number({ error: unlessMissing('must be a number') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more');

/* ---------- Image ---------- */

const imageKind = oneOf(['main', 'secondary', 'nft']);

function imageShape() {
  return {
    url: text().trim().min(1, 'must not be empty').meta({ pattern: NOT_BLANK }),
    kind: imageKind.default('main'),
    originalUrl: text().optional(),
  };
}

export const imageSchema = z.object(imageShape()).meta({ id: 'ImageInput', description: 'An image of a show' });
export const imageResponse = z.object(imageShape()).meta({ id: 'Image' });

/* ---------- Configuration (event level, shows may override) ---------- */

function configurationShape() {
  return {
    ticketDelivery: z
      .object({
        time: z.object({
          when: oneOf(['BEFORE', 'AFTER']),
          seconds: z.number({ error: unlessMissing('must be a number') }).min(0, 'must be 0 or more'),
        }),
      })
      .optional()
      .meta({ description: 'When QR codes and access credentials are delivered, relative to the show' }),
    crossBorderPayments: z
      .object({
        enabled: flag(),
        paymentMethods: z.array(oneOf(['PAYPAL', 'STRIPE', 'BANK_TRANSFER'])),
      })
      .optional()
      .meta({ description: 'Usable only if the environment accepts cross-border payments' }),
    redemption: z
      .object({
        policy: oneOf(['MANDATORY', 'OPTIONAL', 'NONE']),
        instructions: text().optional(),
        hoursBeforeShow: count()
          .optional()
          .meta({ description: 'Whole hours before the show (168 = one week)', example: 168 }),
      })
      .optional()
      .meta({
        description:
          'Box-office or will-call redemption. Absent means policy NONE (for a show: the event’s redemption applies)',
      }),
  };
}

const CONFIGURATION_DESCRIPTION =
  'Event-wide settings; a show’s configuration overrides the event’s. `{}` is valid. ' +
  'A missing `redemption` means policy `NONE`.';

export const configurationSchema = z
  .object(configurationShape())
  .meta({ id: 'ConfigurationInput', description: CONFIGURATION_DESCRIPTION });
/**
 * Redemption is documented as defaulting to NONE but is not filled in here: a show-level NONE would
 * read as an override of the event's policy.
 */
const configurationResponse = z
  .object(configurationShape())
  .meta({ id: 'Configuration', description: CONFIGURATION_DESCRIPTION });

/* ---------- Location ---------- */

/** An IANA zone name (`America/Argentina/Buenos_Aires`, `UTC`), not a bare offset. */
export function isTimeZone(zone: string): boolean {
  if (/^[+-]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const locationExtras = () => ({
  timeZone: text().refine(isTimeZone, 'must be an IANA time zone such as America/Argentina/Buenos_Aires').optional(),
  raw: text().optional().meta({ description: 'Full address as one string, instead of the split fields' }),
  map: z.object({ thumbnail: text().optional(), googleMapsUrl: text().optional() }).optional(),
});

const optionalText = () => text().nullable().optional();

export const locationSchema = z
  .object({
    city: optionalText(),
    state: optionalText(),
    venueName: optionalText(),
    address: optionalText(),
    country: optionalText(),
    postalCode: optionalText(),
    ...locationExtras(),
  })
  .meta({ id: 'LocationInput' });

/** Missing or null → '': all six strings are required in responses. */
const filledText = () => z.preprocess((v) => v ?? '', z.string());

export const locationResponse = z
  .object({
    city: filledText(),
    state: filledText(),
    venueName: filledText(),
    address: filledText(),
    country: filledText(),
    postalCode: filledText(),
    ...locationExtras(),
  })
  .meta({ id: 'Location' });

/* ---------- Producer ---------- */

function producerShape() {
  return {
    producerId: partnerId(),
    name: text().optional(),
    emails: z.array(z.email('must be an e-mail address')).optional(),
  };
}

export const producerSchema = z
  .object(producerShape())
  .meta({ id: 'ProducerInput', description: 'Used for communication, reporting and access control' });
const producerResponse = z.object(producerShape()).meta({ id: 'Producer' });

/**
 * A seat map's SVG, sanitised as it is parsed: POST, PUT and the event feed all pass here, so only the
 * harmless copy is ever stored or echoed (`server/lib/svg.ts`). Blank means no map and stays blank.
 * A transform rather than a refinement: OpenAPI shows the input side, a string.
 */
const svgCode = () =>
  text()
    .transform((markup, ctx) => {
      if (markup.trim() === '') return '';
      const result = sanitizeSvg(markup);
      if ('svg' in result) return result.svg;
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    })
    .meta({
      description:
        'SVG markup of the seat map, at most 1 MB. Stored sanitised: shapes, text, groups, gradients, clipping, ' +
        'ids, classes and `data-section` / `data-row` / `data-seat` stay; scripts, event handlers, styles, ' +
        'animation, images, embedded HTML and links outside the document are removed',
    });

const seatingSchema = z
  .object({ image: text().optional(), svgCode: svgCode().optional() })
  .meta({ description: 'Seat map: an image URL and/or SVG markup' });
const seatingResponse = z
  .object({ image: z.string().optional(), svgCode: z.string().optional().meta({ description: 'Sanitised SVG' }) })
  .meta({ description: 'Seat map: an image URL and/or SVG markup (as stored: sanitised)' });

/* ---------- Primary sales fee (its schema: the partners module's, the lowest that uses it) ---------- */

/** On the catalogue's inputs: absent keeps the stored fee (PUT), `null` clears it, an object replaces it. */
const feeField = (level: string) =>
  primarySalesFeeSchema
    .nullable()
    .optional()
    .meta({
      description: `This ${level}’s primary sales fee. In an update, omitted keeps the stored fee and \`null\` removes it`,
    });

const feeResponseField = (level: string) =>
  primarySalesFeeResponse.optional().meta({ description: `This ${level}’s primary sales fee, when one is set` });

/* ---------- TicketOption ---------- */

const currency = () =>
  text().trim().toUpperCase().refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR or USD').meta({
    description: 'ISO 4217 code (one the server knows); lower case is accepted and upper-cased',
    example: 'ARS',
    // What the refinement can be said of: three letters, in any case, white space around them trimmed.
    pattern: '^\\s*[A-Za-z]{3}\\s*$',
  });

/**
 * A price in major units: a number, a numeric string or null. Kept as sent; the service turns it into
 * minor units with `toMinorUnits`. Negative prices are refused.
 */
const PRICE_DESCRIPTION = 'Price in major units, excluding commissions and fees';
export const priceSchema = documentAs(
  z
    .union([z.number(), z.string(), z.null()], { error: 'must be a number, a numeric string or null' })
    .superRefine((value, ctx) => {
      if (value === null) return;
      const decimal = decimalString(value);
      if (decimal === null) ctx.addIssue({ code: 'custom', message: 'must be a number, a numeric string or null' });
      else if (decimal.startsWith('-')) ctx.addIssue({ code: 'custom', message: 'must not be negative' });
    })
    .meta({ description: PRICE_DESCRIPTION, example: 5500 }),
  // What `decimalString` reads: a number written without an exponent (0, or 0.000001 up to below 1e21), or
  // digits with an optional decimal part, white space around them trimmed; never negative.
  z
    .union([
      z
        .number()
        .min(0)
        .lt(1e21)
        .meta({ not: { exclusiveMinimum: 0, exclusiveMaximum: 0.000001 } }),
      z.string().regex(/^\s*\d+(\.\d+)?\s*$/),
      z.null(),
    ])
    .meta({ description: `${PRICE_DESCRIPTION}: a number, a numeric string (\`"55.00"\`) or null`, example: 5500 }),
);

function ticketOptionShape() {
  return {
    title: title(),
    ticketId: partnerId().meta({ description: 'Partner’s access-category id (ticketOptionId elsewhere)' }),
    description: text(),
    currency: currency(),
    price: priceSchema.optional(),
    stock: count().optional(),
    // Not defaulted here: a PUT that leaves it out keeps the stored value (a new option gets true).
    webVisibility: flag().optional().meta({ description: 'Default true' }),
    webSoldOut: flag().optional(),
    area: text().optional().meta({ description: 'Zone grouping; several options may share one value' }),
  };
}

/**
 * The price must fit the currency's minor unit (no 12.345 EUR). Object-level checks run even when a
 * field already failed, so this only looks at a price and currency that are valid on their own.
 */
function checkPriceFitsCurrency(option: { price?: unknown; currency?: unknown }, ctx: z.RefinementCtx) {
  const { price, currency } = option;
  if (typeof currency !== 'string' || !isCurrencyCode(currency)) return;
  if (typeof price !== 'number' && typeof price !== 'string') return;
  const decimal = decimalString(price);
  if (decimal === null || decimal.startsWith('-')) return;
  const result = toMinorUnits(decimal, currency);
  if ('error' in result) ctx.addIssue({ code: 'custom', path: ['price'], message: result.error });
}

export const ticketOptionSchema = z
  .object({ ...ticketOptionShape(), primarySalesFee: feeField('ticket option') })
  .superRefine(checkPriceFitsCurrency)
  .meta({ id: 'TicketOptionInput' });
export const ticketOptionResponse = z
  .object({
    ...ticketOptionShape(),
    webVisibility: flag().default(true),
    primarySalesFee: feeResponseField('ticket option'),
  })
  .meta({ id: 'TicketOption' });

/* ---------- PriceType ---------- */

export const priceTypeInventorySchema = z.object({
  releasedTickets: count().optional(),
  reservedSpace: count().optional(),
  soldOut: flag().optional(),
  soldPercentage: z
    .number({ error: unlessMissing('must be a number') })
    .min(0, 'must be between 0 and 100')
    .max(100, 'must be between 0 and 100')
    .optional(),
});

function priceTypeShape() {
  return {
    priceTypeId: partnerId(),
    _id: z.unknown().optional(),
    title: text().optional(),
    description: text().optional(),
    // Not defaulted here: a PUT that leaves them out keeps the stored values (new: true and false).
    webVisibility: flag().optional().meta({ description: 'Default true' }),
    webSoldOut: flag().optional(),
    stock: count().optional(),
    invisible: flag().optional().meta({ description: 'Default false' }),
    inventory: priceTypeInventorySchema.optional(),
  };
}

export const priceTypeSchema = z.object(priceTypeShape()).meta({ id: 'PriceTypeInput' });
export const priceTypeResponse = z
  .object({ ...priceTypeShape(), webVisibility: flag().default(true), invisible: flag().default(false) })
  .meta({ id: 'PriceType' });

/* ---------- Show ---------- */

export const showStatus = oneOf(['LIVE', 'CANCELLED']);

export const DATE_TIME_MESSAGE = 'must be an ISO 8601 date-time with a timezone, e.g. 2026-05-01T20:00:00-03:00';

/** A date-time with `Z` or an offset; one without a zone is ambiguous and refused. */
const showDate = () =>
  z.iso
    .datetime({ offset: true, error: unlessMissing(DATE_TIME_MESSAGE) })
    .meta({ description: 'ISO 8601 date and time, timezone included', example: '2026-05-01T20:00:00-03:00' });

function showShape() {
  return {
    title: title(),
    date: showDate(),
    showId: partnerId(),
    primarySalesUrl: text().min(1, 'must not be empty').optional(),
    status: showStatus.optional().meta({ description: 'A cancelled show is not available for sales or transfers' }),
    ticketOptions: z.array(ticketOptionSchema).min(1, 'must contain at least one ticket option'),
    priceTypes: z.array(priceTypeSchema).optional(),
    images: z.array(imageSchema),
    configuration: configurationSchema,
    showRescheduled: flag().optional(),
    location: locationSchema.optional(),
    resaleEnabled: flag().optional(),
    primarySalesFee: feeField('show'),
  };
}

/**
 * An issue on every repeat of an id, pointing at the repeat: `ticketOptions[2].ticketId`. Written
 * defensively: object-level checks also run when some items already failed.
 */
function checkUnique(ctx: z.RefinementCtx, items: unknown, list: string, key: string, scope: string) {
  if (!Array.isArray(items)) return;
  const first = new Map<string, number>();
  items.forEach((item: unknown, i) => {
    const id = item && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined;
    if (typeof id !== 'string') return;
    const seen = first.get(id);
    if (seen === undefined) first.set(id, i);
    else {
      ctx.addIssue({
        code: 'custom',
        path: [list, i, key],
        message: `repeats ${list}[${seen}].${key} "${id}"; ${key}s must be unique within ${scope}`,
      });
    }
  });
}

function checkShowIds(show: { ticketOptions?: unknown; priceTypes?: unknown }, ctx: z.RefinementCtx) {
  checkUnique(ctx, show.ticketOptions, 'ticketOptions', 'ticketId', 'a show');
  checkUnique(ctx, show.priceTypes, 'priceTypes', 'priceTypeId', 'a show');
}

export const showSchema = z.object(showShape()).superRefine(checkShowIds).meta({ id: 'ShowInput' });

/**
 * A show inside an update: any field of the Show table may be left out (the stored value is kept),
 * except `showId`, which the service merges on. Ticket options and price types that are sent are
 * complete. A show id not stored yet is a new show and must be complete: the service checks that with
 * `isCompleteShow`, since only it knows which ids exist.
 */
export const showUpdateSchema = z
  .object({ ...z.object(showShape()).partial().shape, showId: partnerId() })
  .superRefine(checkShowIds)
  .meta({ id: 'ShowUpdate' });

/** Fields a show update lacks to be a complete (new) show, e.g. `['date', 'images']`. */
export function missingShowFields(show: ShowUpdate): string[] {
  const required = ['title', 'date', 'ticketOptions', 'images', 'configuration'] as const;
  return required.filter((k) => show[k] === undefined);
}

/** True when a show of an update could be created as is (a new show must be complete). */
export function isCompleteShow(show: ShowUpdate): show is ShowUpdate & ShowInput {
  return missingShowFields(show).length === 0;
}

export const showResponse = z
  .object({
    title: z.string(),
    date: z.string().meta({ description: 'ISO 8601 date and time with offset', example: '2026-05-01T20:00:00-03:00' }),
    showId: z.string(),
    primarySalesUrl: z.string().optional(),
    status: showStatus.optional(),
    ticketOptions: z.array(ticketOptionResponse),
    priceTypes: z.array(priceTypeResponse).optional(),
    images: z.array(imageResponse),
    configuration: configurationResponse,
    showRescheduled: z.boolean().default(false),
    location: locationResponse.optional(),
    resaleEnabled: z.boolean().default(true).meta({ description: 'false disables resale of this show’s tickets' }),
    primarySalesFee: feeResponseField('show'),
  })
  .meta({ id: 'Show' });

/* ---------- Event ---------- */

/**
 * The spec's Event table types `shows` as "object (show)", yet everything else (show-level ids, "all
 * shows of the event", cancellation by showId) describes several shows. We accept an array and, for
 * payloads written against the table literally, a single show object, treated as a one-item array.
 * The OpenAPI document shows the array (the canonical form) and says so in the description.
 */
function showList<S extends z.ZodType>(show: S) {
  const description = 'The event’s shows. A single show object is also accepted and read as a one-show array.';
  const shows = z.array(show).min(1, 'must contain at least one show');
  return documentAs(
    z
      .preprocess((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? [v] : v), shows)
      .meta({ description }),
    z.union([shows, show]).meta({ description }),
  );
}

function checkShowIdsUnique(event: { shows?: unknown }, ctx: z.RefinementCtx) {
  checkUnique(ctx, event.shows, 'shows', 'showId', 'an event');
}

const externalReferenceId = () =>
  partnerId().meta({
    description: 'Partner’s event id; identifies the event in all later calls',
    example: 'evt-2026-0042',
  });

export const eventCreateSchema = z
  .object({
    title: title(),
    description: text().meta({ description: 'Rich text allowed' }),
    externalReferenceId: externalReferenceId(),
    shows: showList(showSchema),
    location: locationSchema,
    producers: z.array(producerSchema).optional(),
    configuration: configurationSchema,
    seating: seatingSchema.optional(),
    primarySalesFee: feeField('event'),
  })
  .superRefine(checkShowIdsUnique)
  .meta({ id: 'EventCreate', description: 'A new event with its shows. Unknown fields are ignored.' });

export const eventUpdateSchema = z
  .object({
    title: title().optional(),
    description: text().optional(),
    externalReferenceId: externalReferenceId(),
    shows: showList(showUpdateSchema).optional(),
    location: locationSchema.optional(),
    producers: z.array(producerSchema).optional(),
    configuration: configurationSchema.optional(),
    seating: seatingSchema.optional(),
    primarySalesFee: feeField('event'),
  })
  .superRefine(checkShowIdsUnique)
  .meta({
    id: 'EventUpdate',
    description:
      'Fields present replace stored values; omitted fields keep them. Shows are matched by showId: a known show ' +
      'may be partial, a new one must be complete. Ticket options are never deleted by an update (an omitted ' +
      'option stays). Unknown fields are ignored.',
  });

export const eventResponse = z
  .object({
    title: z.string(),
    description: z.string(),
    externalReferenceId: z.string(),
    shows: z.array(showResponse),
    location: locationResponse,
    producers: z.array(producerResponse).optional(),
    configuration: configurationResponse,
    seating: seatingResponse.optional(),
    primarySalesFee: feeResponseField('event'),
  })
  .meta({ id: 'Event' });

/* ---------- types ---------- */

/** Parsed input (defaults applied, currency upper-cased). */
export type PrimarySalesFeeInput = z.output<typeof primarySalesFeeSchema>;
export type TicketOptionInput = z.output<typeof ticketOptionSchema>;
export type PriceTypeInput = z.output<typeof priceTypeSchema>;
export type ShowInput = z.output<typeof showSchema>;
export type ShowUpdate = z.output<typeof showUpdateSchema>;
export type EventCreateInput = z.output<typeof eventCreateSchema>;
export type EventUpdateInput = z.output<typeof eventUpdateSchema>;
/** What partners may send, before defaults and normalisation. */
export type EventCreateBody = z.input<typeof eventCreateSchema>;

export type TicketOptionResponse = z.output<typeof ticketOptionResponse>;
export type ShowResponse = z.output<typeof showResponse>;
export type EventResponse = z.output<typeof eventResponse>;
