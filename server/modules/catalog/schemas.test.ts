import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPath } from '@/server/lib/errors';
import {
  DATE_TIME_MESSAGE,
  configurationSchema,
  eventCreateSchema,
  eventResponse,
  eventUpdateSchema,
  imageResponse,
  imageSchema,
  isCompleteShow,
  isTimeZone,
  locationResponse,
  locationSchema,
  missingShowFields,
  priceTypeInventorySchema,
  priceTypeResponse,
  priceTypeSchema,
  producerSchema,
  showResponse,
  showSchema,
  showStatus,
  showUpdateSchema,
  ticketOptionResponse,
  ticketOptionSchema,
} from './schemas';

/* ---------- fixtures: the smallest valid payloads ---------- */

const option = (over: Record<string, unknown> = {}) => ({
  title: 'General admission',
  ticketId: 'GA',
  description: 'Standing',
  currency: 'ARS',
  price: 5500,
  ...over,
});

const show = (over: Record<string, unknown> = {}) => ({
  title: 'Night one',
  date: '2026-05-01T20:00:00-03:00',
  showId: 'show-1',
  ticketOptions: [option()],
  images: [],
  configuration: {},
  ...over,
});

const event = (over: Record<string, unknown> = {}) => ({
  title: 'Big concert',
  description: '<p>Rich text</p>',
  externalReferenceId: 'evt-42',
  shows: [show()],
  location: { city: 'Buenos Aires', venueName: 'Luna Park' },
  configuration: {},
  ...over,
});

/** Issues as `path → message`, in the envelope's path format (`shows[0].date`). */
function issues(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [formatPath(i.path), i.message]));
}

function paths(schema: z.ZodType, value: unknown): string[] {
  return Object.keys(issues(schema, value));
}

/* ---------- Event create ---------- */

describe('eventCreateSchema', () => {
  it('accepts a minimal event', () => {
    expect(eventCreateSchema.safeParse(event()).success).toBe(true);
  });

  it.each(['title', 'description', 'externalReferenceId', 'shows', 'location', 'configuration'])(
    'requires %s, with a "received undefined" issue (the envelope turns it into "is required")',
    (field) => {
      const body: Record<string, unknown> = event();
      delete body[field];
      const found = issues(eventCreateSchema, body);
      expect(Object.keys(found)).toEqual([field]);
      expect(found[field]).toMatch(/received undefined/);
    },
  );

  it('leaves producers and seating optional and keeps them when sent (the SVG as the sanitiser writes it)', () => {
    const parsed = eventCreateSchema.parse(
      event({
        producers: [{ producerId: 'p1', name: 'Prod', emails: ['a@b.co'] }],
        seating: { image: 'https://x/map.png', svgCode: '<svg viewBox="0 0 1 1"/>' },
      }),
    );
    expect(parsed.producers).toEqual([{ producerId: 'p1', name: 'Prod', emails: ['a@b.co'] }]);
    expect(parsed.seating).toEqual({ image: 'https://x/map.png', svgCode: '<svg viewBox="0 0 1 1"></svg>' });
  });

  it('bounds externalReferenceId to 1..200 characters', () => {
    expect(issues(eventCreateSchema, event({ externalReferenceId: '' }))).toEqual({
      externalReferenceId: 'must not be empty',
    });
    expect(issues(eventCreateSchema, event({ externalReferenceId: 'x'.repeat(201) }))).toEqual({
      externalReferenceId: 'must be at most 200 characters',
    });
    expect(eventCreateSchema.safeParse(event({ externalReferenceId: 'x'.repeat(200) })).success).toBe(true);
  });

  it('refuses a blank title', () => {
    expect(issues(eventCreateSchema, event({ title: '   ' }))).toEqual({ title: 'must not be empty' });
  });

  it('needs at least one show', () => {
    expect(issues(eventCreateSchema, event({ shows: [] }))).toEqual({ shows: 'must contain at least one show' });
  });

  it('accepts a single show object (the spec table says "object") as a one-show array', () => {
    const parsed = eventCreateSchema.parse(event({ shows: show({ showId: 'only' }) }));
    expect(parsed.shows).toHaveLength(1);
    expect(parsed.shows[0].showId).toBe('only');
    // Errors inside a single show still name the field, as the show of index 0.
    expect(paths(eventCreateSchema, event({ shows: show({ date: 'soon' }) }))).toEqual(['shows[0].date']);
  });

  it('refuses shows that are neither an array nor an object', () => {
    expect(paths(eventCreateSchema, event({ shows: 'show-1' }))).toEqual(['shows']);
    expect(paths(eventCreateSchema, event({ shows: null }))).toEqual(['shows']);
  });

  it('requires showIds unique across the event, pointing at the repeat', () => {
    const found = issues(
      eventCreateSchema,
      event({ shows: [show({ showId: 'a' }), show({ showId: 'b' }), show({ showId: 'a' })] }),
    );
    expect(Object.keys(found)).toEqual(['shows[2].showId']);
    expect(found['shows[2].showId']).toContain('shows[0].showId');
  });

  it('ignores unknown keys at every level (partners send extra fields)', () => {
    const parsed = eventCreateSchema.parse(
      event({
        legacy: 1,
        shows: [show({ extra: true, ticketOptions: [option({ sku: 'x' })], images: [{ url: 'u', w: 1 }] })],
      }),
    );
    expect(parsed).not.toHaveProperty('legacy');
    expect(parsed.shows[0]).not.toHaveProperty('extra');
    expect(parsed.shows[0].ticketOptions[0]).not.toHaveProperty('sku');
    expect(parsed.shows[0].images[0]).not.toHaveProperty('w');
  });

  it('reports problems in several shows and options at once, each by its full path', () => {
    const body = event({
      shows: [
        show({ ticketOptions: [option({ ticketId: '' }), option({ ticketId: 'B', currency: 'xx', price: '1.001' })] }),
        show({ showId: 's2', status: 'DONE' }),
      ],
    });
    expect(paths(eventCreateSchema, body)).toEqual([
      'shows[0].ticketOptions[0].ticketId',
      'shows[0].ticketOptions[1].currency',
      'shows[1].status',
    ]);
  });

  it('reports the full path of a nested problem', () => {
    const body = event({ shows: [show(), show({ showId: 's2', ticketOptions: [option({ currency: 'EURO' })] })] });
    expect(paths(eventCreateSchema, body)).toEqual(['shows[1].ticketOptions[0].currency']);
  });
});

/* ---------- Event update ---------- */

describe('eventUpdateSchema', () => {
  it('needs only externalReferenceId', () => {
    expect(eventUpdateSchema.parse({ externalReferenceId: 'evt-42' })).toEqual({ externalReferenceId: 'evt-42' });
    expect(paths(eventUpdateSchema, {})).toEqual(['externalReferenceId']);
    expect(paths(eventUpdateSchema, { externalReferenceId: '' })).toEqual(['externalReferenceId']);
  });

  it('accepts a partial show carrying its showId', () => {
    const parsed = eventUpdateSchema.parse({
      externalReferenceId: 'e',
      shows: [{ showId: 's1', status: 'CANCELLED' }],
    });
    expect(parsed.shows).toEqual([{ showId: 's1', status: 'CANCELLED' }]);
  });

  it('requires showId in every updated show', () => {
    const found = issues(eventUpdateSchema, { externalReferenceId: 'e', shows: [{ showId: 's1' }, { title: 'x' }] });
    expect(Object.keys(found)).toEqual(['shows[1].showId']);
  });

  it('still validates the fields a partial show sends', () => {
    expect(
      issues(eventUpdateSchema, { externalReferenceId: 'e', shows: [{ showId: 's', date: '2026-05-01' }] }),
    ).toEqual({ 'shows[0].date': DATE_TIME_MESSAGE });
    expect(paths(eventUpdateSchema, { externalReferenceId: 'e', shows: [{ showId: 's', status: 'PAUSED' }] })).toEqual([
      'shows[0].status',
    ]);
    expect(paths(eventUpdateSchema, { externalReferenceId: 'e', shows: [{ showId: 's', ticketOptions: [] }] })).toEqual(
      ['shows[0].ticketOptions'],
    );
  });

  it('accepts a single show object here too', () => {
    const parsed = eventUpdateSchema.parse({ externalReferenceId: 'e', shows: { showId: 's1', resaleEnabled: false } });
    expect(parsed.shows).toEqual([{ showId: 's1', resaleEnabled: false }]);
  });

  it('checks showId, ticketId and priceTypeId uniqueness as on create', () => {
    expect(
      paths(eventUpdateSchema, {
        externalReferenceId: 'e',
        shows: [{ showId: 's' }, { showId: 't' }, { showId: 's' }],
      }),
    ).toEqual(['shows[2].showId']);
    expect(
      paths(eventUpdateSchema, {
        externalReferenceId: 'e',
        shows: [
          {
            showId: 's',
            ticketOptions: [option(), option()],
            priceTypes: [{ priceTypeId: 'p' }, { priceTypeId: 'p' }],
          },
        ],
      }),
    ).toEqual(['shows[0].ticketOptions[1].ticketId', 'shows[0].priceTypes[1].priceTypeId']);
  });

  it('validates optional event fields when present', () => {
    expect(paths(eventUpdateSchema, { externalReferenceId: 'e', title: '' })).toEqual(['title']);
    expect(paths(eventUpdateSchema, { externalReferenceId: 'e', location: { timeZone: 'Mars/Base' } })).toEqual([
      'location.timeZone',
    ]);
  });
});

describe('isCompleteShow / missingShowFields', () => {
  it('tells a complete show from a partial one', () => {
    const full = showUpdateSchema.parse(show());
    const partial = showUpdateSchema.parse({ showId: 's1', title: 'New title' });
    expect(isCompleteShow(full)).toBe(true);
    expect(isCompleteShow(partial)).toBe(false);
    expect(missingShowFields(partial)).toEqual(['date', 'ticketOptions', 'images', 'configuration']);
    expect(missingShowFields(showUpdateSchema.parse({ ...show(), images: undefined }))).toEqual(['images']);
  });
});

/* ---------- Show ---------- */

describe('showSchema', () => {
  it.each(['title', 'date', 'showId', 'ticketOptions', 'images', 'configuration'])('requires %s', (field) => {
    const body: Record<string, unknown> = show();
    delete body[field];
    const found = issues(showSchema, body);
    expect(Object.keys(found)).toEqual([field]);
    expect(found[field]).toMatch(/received undefined/);
  });

  it.each([
    '2026-05-01T20:00:00-03:00',
    '2026-05-01T23:00:00Z',
    '2022-04-02T14:00:00.000-04:00',
    '2026-05-01T20:00:00.123456+05:30',
  ])('accepts the date-time %s', (date) => {
    expect(showSchema.parse(show({ date })).date).toBe(date);
  });

  it.each(['2026-05-01T20:00:00', '2026-05-01', '2026-05-01 20:00:00-03:00', '2026-02-30T20:00:00Z', 'tomorrow', ''])(
    'refuses the date %j, saying a timezone is needed',
    (date) => {
      expect(issues(showSchema, show({ date }))).toEqual({ date: DATE_TIME_MESSAGE });
    },
  );

  it('has a readable date message', () => {
    expect(DATE_TIME_MESSAGE).toBe('must be an ISO 8601 date-time with a timezone, e.g. 2026-05-01T20:00:00-03:00');
  });

  it('refuses an empty showId and an empty primarySalesUrl', () => {
    expect(issues(showSchema, show({ showId: '' }))).toEqual({ showId: 'must not be empty' });
    expect(issues(showSchema, show({ primarySalesUrl: '' }))).toEqual({ primarySalesUrl: 'must not be empty' });
    expect(showSchema.parse(show({ primarySalesUrl: 'https://tix.example/1' })).primarySalesUrl).toBe(
      'https://tix.example/1',
    );
  });

  it('takes status LIVE or CANCELLED only', () => {
    expect(showStatus.options).toEqual(['LIVE', 'CANCELLED']);
    expect(showSchema.parse(show({ status: 'CANCELLED' })).status).toBe('CANCELLED');
    expect(issues(showSchema, show({ status: 'live' }))).toEqual({ status: 'must be one of: LIVE, CANCELLED' });
  });

  it('needs at least one ticket option; images may be empty', () => {
    expect(issues(showSchema, show({ ticketOptions: [] }))).toEqual({
      ticketOptions: 'must contain at least one ticket option',
    });
    expect(showSchema.parse(show({ images: [] })).images).toEqual([]);
  });

  it('requires ticketIds unique within a show, with the path of the repeat', () => {
    const found = issues(
      showSchema,
      show({ ticketOptions: [option({ ticketId: 'A' }), option({ ticketId: 'B' }), option({ ticketId: 'A' })] }),
    );
    expect(Object.keys(found)).toEqual(['ticketOptions[2].ticketId']);
    expect(found['ticketOptions[2].ticketId']).toBe(
      'repeats ticketOptions[0].ticketId "A"; ticketIds must be unique within a show',
    );
  });

  it('requires priceTypeIds unique within a show, with the path of the repeat', () => {
    const found = issues(
      showSchema,
      show({ priceTypes: [{ priceTypeId: 'adult' }, { priceTypeId: 'child' }, { priceTypeId: 'child' }] }),
    );
    expect(Object.keys(found)).toEqual(['priceTypes[2].priceTypeId']);
  });

  it('allows the same ticketId in two different shows', () => {
    expect(eventCreateSchema.safeParse(event({ shows: [show({ showId: 'a' }), show({ showId: 'b' })] })).success).toBe(
      true,
    );
  });

  it('leaves showRescheduled and resaleEnabled absent on input (the service decides)', () => {
    const parsed = showSchema.parse(show());
    expect(parsed).not.toHaveProperty('showRescheduled');
    expect(parsed).not.toHaveProperty('resaleEnabled');
    expect(paths(showSchema, show({ resaleEnabled: 'no' }))).toEqual(['resaleEnabled']);
  });
});

/* ---------- TicketOption ---------- */

describe('ticketOptionSchema', () => {
  it.each(['title', 'ticketId', 'description', 'currency'])('requires %s', (field) => {
    const body: Record<string, unknown> = option();
    delete body[field];
    expect(paths(ticketOptionSchema, body)).toEqual([field]);
  });

  it('refuses an empty ticketId; accepts an empty description', () => {
    expect(issues(ticketOptionSchema, option({ ticketId: '' }))).toEqual({ ticketId: 'must not be empty' });
    expect(ticketOptionSchema.parse(option({ description: '' })).description).toBe('');
  });

  it('upper-cases a lower-case currency and refuses what is not ISO 4217', () => {
    expect(ticketOptionSchema.parse(option({ currency: 'eur', price: 10 })).currency).toBe('EUR');
    expect(ticketOptionSchema.parse(option({ currency: ' usd ' })).currency).toBe('USD');
    for (const currency of ['EURO', 'E1R', 'ZZZ', '']) {
      expect(issues(ticketOptionSchema, option({ currency }))).toEqual({
        currency: 'must be an ISO 4217 currency code such as EUR or USD',
      });
    }
  });

  it('takes price as a number, a numeric string or null, or leaves it out', () => {
    expect(ticketOptionSchema.parse(option({ price: 5500 })).price).toBe(5500);
    expect(ticketOptionSchema.parse(option({ currency: 'EUR', price: '45.50' })).price).toBe('45.50');
    expect(ticketOptionSchema.parse(option({ price: null })).price).toBeNull();
    const { price: _omitted, ...withoutPrice } = option();
    expect(ticketOptionSchema.parse(withoutPrice)).not.toHaveProperty('price');
    expect(ticketOptionSchema.parse(option({ price: 0 })).price).toBe(0);
  });

  it.each([['abc'], ['12,50'], [''], [true], [{}], [Number.NaN], [1e21]])('refuses the price %j', (price) => {
    expect(issues(ticketOptionSchema, option({ price }))).toEqual({
      price: 'must be a number, a numeric string or null',
    });
  });

  it('refuses a negative price', () => {
    expect(issues(ticketOptionSchema, option({ price: -1 }))).toEqual({ price: 'must not be negative' });
    expect(issues(ticketOptionSchema, option({ price: '-0.5', currency: 'EUR' }))).toEqual({
      price: 'must not be negative',
    });
  });

  it('refuses more decimals than the currency has', () => {
    expect(issues(ticketOptionSchema, option({ currency: 'EUR', price: '12.345' }))).toEqual({
      price: 'has more than 2 decimal places, which EUR does not allow',
    });
    expect(issues(ticketOptionSchema, option({ currency: 'JPY', price: 1200.5 }))).toEqual({
      price: 'has more than 0 decimal places, which JPY does not allow',
    });
    expect(ticketOptionSchema.safeParse(option({ currency: 'KWD', price: '1.125' })).success).toBe(true);
  });

  it('leaves webVisibility unset on input (a PUT keeps the stored value), true in responses', () => {
    expect(ticketOptionSchema.parse(option()).webVisibility).toBeUndefined();
    expect(ticketOptionResponse.parse(option()).webVisibility).toBe(true);
    const parsed = ticketOptionSchema.parse(
      option({ webVisibility: false, webSoldOut: true, stock: 0, area: 'Floor' }),
    );
    expect(parsed).toMatchObject({ webVisibility: false, webSoldOut: true, stock: 0, area: 'Floor' });
  });

  it('refuses a negative or fractional stock', () => {
    expect(issues(ticketOptionSchema, option({ stock: -1 }))).toEqual({ stock: 'must be 0 or more' });
    expect(issues(ticketOptionSchema, option({ stock: 1.5 }))).toEqual({ stock: 'must be a whole number' });
  });
});

/* ---------- PriceType ---------- */

describe('priceTypeSchema', () => {
  it('requires a non-empty priceTypeId', () => {
    expect(paths(priceTypeSchema, {})).toEqual(['priceTypeId']);
    expect(issues(priceTypeSchema, { priceTypeId: '' })).toEqual({ priceTypeId: 'must not be empty' });
  });

  it('leaves webVisibility and invisible unset on input, true and false in responses', () => {
    expect(priceTypeSchema.parse({ priceTypeId: 'adult' })).toEqual({ priceTypeId: 'adult' });
    expect(priceTypeResponse.parse({ priceTypeId: 'adult' })).toEqual({
      priceTypeId: 'adult',
      webVisibility: true,
      invisible: false,
    });
    expect(priceTypeSchema.parse({ priceTypeId: 'a', webVisibility: false, invisible: true })).toMatchObject({
      webVisibility: false,
      invisible: true,
    });
  });

  it('keeps _id of any type', () => {
    expect(priceTypeSchema.parse({ priceTypeId: 'a', _id: { $oid: '1' } })._id).toEqual({ $oid: '1' });
    expect(priceTypeSchema.parse({ priceTypeId: 'a', _id: 7 })._id).toBe(7);
  });

  it('bounds the inventory numbers', () => {
    expect(
      priceTypeInventorySchema.parse({ releasedTickets: 0, reservedSpace: 3, soldOut: false, soldPercentage: 100 }),
    ).toEqual({ releasedTickets: 0, reservedSpace: 3, soldOut: false, soldPercentage: 100 });
    expect(priceTypeInventorySchema.parse({})).toEqual({});
    expect(
      paths(priceTypeSchema, {
        priceTypeId: 'a',
        inventory: { releasedTickets: -1, reservedSpace: -2, soldOut: 'yes', soldPercentage: 101 },
      }),
    ).toEqual([
      'inventory.releasedTickets',
      'inventory.reservedSpace',
      'inventory.soldOut',
      'inventory.soldPercentage',
    ]);
    expect(issues(priceTypeInventorySchema, { soldPercentage: -0.1 })).toEqual({
      soldPercentage: 'must be between 0 and 100',
    });
  });
});

/* ---------- Image, configuration, location, producer ---------- */

describe('imageSchema', () => {
  it('requires a non-empty url and defaults kind to main', () => {
    expect(imageSchema.parse({ url: 'https://x/a.png' })).toEqual({ url: 'https://x/a.png', kind: 'main' });
    expect(paths(imageSchema, {})).toEqual(['url']);
    expect(issues(imageSchema, { url: '' })).toEqual({ url: 'must not be empty' });
  });

  it('takes kind main, secondary or nft only', () => {
    expect(imageSchema.parse({ url: 'u', kind: 'nft', originalUrl: 'o' })).toEqual({
      url: 'u',
      kind: 'nft',
      originalUrl: 'o',
    });
    expect(issues(imageSchema, { url: 'u', kind: 'banner' })).toEqual({ kind: 'must be one of: main, secondary, nft' });
  });
});

describe('configurationSchema', () => {
  it('accepts {} and a full configuration', () => {
    expect(configurationSchema.parse({})).toEqual({});
    const full = {
      ticketDelivery: { time: { when: 'BEFORE', seconds: 10800 } },
      crossBorderPayments: { enabled: true, paymentMethods: ['PAYPAL', 'STRIPE', 'BANK_TRANSFER'] },
      redemption: { policy: 'MANDATORY', instructions: 'Box office', hoursBeforeShow: 168 },
    };
    expect(configurationSchema.parse(full)).toEqual(full);
  });

  it('requires the fields inside each object', () => {
    expect(paths(configurationSchema, { ticketDelivery: {} })).toEqual(['ticketDelivery.time']);
    expect(paths(configurationSchema, { ticketDelivery: { time: {} } })).toEqual([
      'ticketDelivery.time.when',
      'ticketDelivery.time.seconds',
    ]);
    expect(paths(configurationSchema, { crossBorderPayments: {} })).toEqual([
      'crossBorderPayments.enabled',
      'crossBorderPayments.paymentMethods',
    ]);
    expect(paths(configurationSchema, { redemption: { instructions: 'x' } })).toEqual(['redemption.policy']);
  });

  it('refuses wrong enum values with their paths', () => {
    expect(
      issues(configurationSchema, {
        ticketDelivery: { time: { when: 'DURING', seconds: 0 } },
        crossBorderPayments: { enabled: true, paymentMethods: ['PAYPAL', 'CASH'] },
        redemption: { policy: 'SOMETIMES' },
      }),
    ).toEqual({
      'ticketDelivery.time.when': 'must be one of: BEFORE, AFTER',
      'crossBorderPayments.paymentMethods[1]': 'must be one of: PAYPAL, STRIPE, BANK_TRANSFER',
      'redemption.policy': 'must be one of: MANDATORY, OPTIONAL, NONE',
    });
  });

  it('refuses negative seconds and non-integer or negative hoursBeforeShow', () => {
    expect(paths(configurationSchema, { ticketDelivery: { time: { when: 'AFTER', seconds: -1 } } })).toEqual([
      'ticketDelivery.time.seconds',
    ]);
    expect(issues(configurationSchema, { redemption: { policy: 'NONE', hoursBeforeShow: 1.5 } })).toEqual({
      'redemption.hoursBeforeShow': 'must be a whole number',
    });
    expect(issues(configurationSchema, { redemption: { policy: 'NONE', hoursBeforeShow: -1 } })).toEqual({
      'redemption.hoursBeforeShow': 'must be 0 or more',
    });
  });

  it('is applied at show level too', () => {
    expect(paths(showSchema, show({ configuration: { redemption: { policy: 'X' } } }))).toEqual([
      'configuration.redemption.policy',
    ]);
  });
});

describe('locationSchema', () => {
  it('accepts strings, null or nothing for the six fields and keeps them as sent', () => {
    const parsed = locationSchema.parse({ city: 'Rosario', state: null, raw: 'Calle 1, Rosario' });
    expect(parsed).toEqual({ city: 'Rosario', state: null, raw: 'Calle 1, Rosario' });
    expect(paths(locationSchema, { country: 54 })).toEqual(['country']);
  });

  it('accepts IANA time zones and refuses anything else', () => {
    expect(locationSchema.parse({ timeZone: 'America/Argentina/Buenos_Aires' }).timeZone).toBe(
      'America/Argentina/Buenos_Aires',
    );
    expect(isTimeZone('UTC')).toBe(true);
    for (const timeZone of ['Mars/Olympus', '-03:00', '+0300', '']) {
      expect(issues(locationSchema, { timeZone })).toEqual({
        timeZone: 'must be an IANA time zone such as America/Argentina/Buenos_Aires',
      });
    }
  });

  it('takes a map object', () => {
    expect(locationSchema.parse({ map: { thumbnail: 't', googleMapsUrl: 'g' } }).map).toEqual({
      thumbnail: 't',
      googleMapsUrl: 'g',
    });
    expect(paths(locationSchema, { map: { thumbnail: 1 } })).toEqual(['map.thumbnail']);
  });
});

describe('producerSchema', () => {
  it('requires producerId and checks e-mails', () => {
    expect(producerSchema.parse({ producerId: 'p' })).toEqual({ producerId: 'p' });
    expect(paths(producerSchema, { name: 'n' })).toEqual(['producerId']);
    expect(issues(producerSchema, { producerId: '' })).toEqual({ producerId: 'must not be empty' });
    expect(issues(producerSchema, { producerId: 'p', emails: ['ok@example.com', 'nope'] })).toEqual({
      'emails[1]': 'must be an e-mail address',
    });
  });
});

/* ---------- responses ---------- */

describe('response schemas', () => {
  it('fill the six location strings with "" when missing or null', () => {
    expect(locationResponse.parse({ city: 'Rosario', state: null, timeZone: 'UTC' })).toEqual({
      city: 'Rosario',
      state: '',
      venueName: '',
      address: '',
      country: '',
      postalCode: '',
      timeZone: 'UTC',
    });
  });

  it('fill image kind, ticket option and price type defaults', () => {
    expect(imageResponse.parse({ url: 'u' }).kind).toBe('main');
    expect(ticketOptionResponse.parse(option()).webVisibility).toBe(true);
    expect(priceTypeResponse.parse({ priceTypeId: 'p' })).toEqual({
      priceTypeId: 'p',
      webVisibility: true,
      invisible: false,
    });
  });

  it('fill showRescheduled false and resaleEnabled true, keeping stored values', () => {
    const filled = showResponse.parse(show({ images: [{ url: 'u' }], location: {} }));
    expect(filled).toMatchObject({ showRescheduled: false, resaleEnabled: true, images: [{ url: 'u', kind: 'main' }] });
    expect(filled.location).toMatchObject({ city: '', postalCode: '' });
    expect(showResponse.parse(show({ showRescheduled: true, resaleEnabled: false }))).toMatchObject({
      showRescheduled: true,
      resaleEnabled: false,
    });
  });

  it('make a whole event with every response default present', () => {
    const out = eventResponse.parse({ ...event({ location: { city: null } }), internalId: 'evt_secret' });
    expect(out.location).toEqual({ city: '', state: '', venueName: '', address: '', country: '', postalCode: '' });
    expect(out.shows[0]).toMatchObject({ showRescheduled: false, resaleEnabled: true });
    expect(out.shows[0].ticketOptions[0].webVisibility).toBe(true);
    // Internal fields never leak through a response.
    expect(out).not.toHaveProperty('internalId');
  });

  it('mark the defaulted fields required in the OpenAPI (output) schema, and optional in the input one', () => {
    const json = (schema: z.ZodType, io: 'input' | 'output') =>
      z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as {
        $defs: Record<string, { required?: string[] }>;
      };
    const out = json(eventResponse, 'output').$defs;
    expect(out.Show.required).toEqual(expect.arrayContaining(['showRescheduled', 'resaleEnabled']));
    expect(out.TicketOption.required).toContain('webVisibility');
    expect(out.PriceType.required).toEqual(expect.arrayContaining(['webVisibility', 'invisible']));
    expect(out.Image.required).toContain('kind');
    expect(out.Location.required).toEqual(['city', 'state', 'venueName', 'address', 'country', 'postalCode']);

    const inp = json(eventCreateSchema, 'input').$defs;
    expect(Object.keys(inp)).toEqual(
      expect.arrayContaining(['EventCreate', 'ShowInput', 'TicketOptionInput', 'PriceTypeInput', 'ImageInput']),
    );
    expect(inp.TicketOptionInput.required).not.toContain('webVisibility');
    expect(inp.ImageInput.required).toEqual(['url']);
    expect(inp.LocationInput.required ?? []).toEqual([]);
    expect(Object.keys(json(eventUpdateSchema, 'input').$defs)).toEqual(
      expect.arrayContaining(['EventUpdate', 'ShowUpdate']),
    );
  });
});
