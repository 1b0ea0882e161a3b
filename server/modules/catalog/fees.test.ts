import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as create, PUT as update } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { events, shows, ticketOptions } from '@/db/schema';
import { apiRequest, makePartner } from '@/server/testing/fixtures';

let seq = 0;
const ref = () => `FEE-${Date.now()}-${++seq}`;

const EVENT_FEE = { type: 'PERCENTAGE', value: 7.5 };
const SHOW_FEE = { type: 'PERCENTAGE', value: 5 };
const OPTION_FEE = { type: 'FIXED', value: 250.5 };

function option(ticketId: string, extra: Record<string, unknown> = {}) {
  return { title: ticketId, ticketId, description: 'd', currency: 'ARS', price: 5500, ...extra };
}

function show(showId: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'Night one',
    date: '2027-04-02T21:00:00.000-03:00',
    showId,
    ticketOptions: [option('GA', { primarySalesFee: OPTION_FEE }), option('VIP')],
    images: [],
    configuration: {},
    primarySalesFee: SHOW_FEE,
    ...extra,
  };
}

function event(externalReferenceId: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'The Band',
    description: 'Live',
    externalReferenceId,
    shows: [show(`${externalReferenceId}-S1`)],
    location: {},
    configuration: {},
    primarySalesFee: EVENT_FEE,
    ...extra,
  };
}

async function call(fn: (req: Request) => Promise<Response>, key: string, body: unknown, method = 'POST') {
  const res = await fn(apiRequest('/v1/events', { method, key, body }));
  return { status: res.status, body: await res.json() };
}

/** A partner's event with fees on each level (`event`), then updated with the body `change(id)` gives. */
async function putAfterCreate(change: (id: string) => Record<string, unknown>) {
  const { apiKey } = await makePartner('Fees');
  const id = ref();
  await call(create, apiKey, event(id));
  return { id, res: await call(update, apiKey, change(id), 'PUT') };
}

/** The three stored columns, read back raw: SQL null must stay SQL null (not a JSON `null`). */
async function storedFees(externalReferenceId: string) {
  const [row] = await getDb()
    .select({
      event: events.primarySalesFee,
      show: shows.primarySalesFee,
      option: ticketOptions.primarySalesFee,
      optionIsNull: sql<boolean>`${ticketOptions.primarySalesFee} is null`,
      showIsNull: sql<boolean>`${shows.primarySalesFee} is null`,
      eventIsNull: sql<boolean>`${events.primarySalesFee} is null`,
    })
    .from(events)
    .innerJoin(shows, eq(shows.eventId, events.id))
    .innerJoin(ticketOptions, and(eq(ticketOptions.showPk, shows.id), eq(ticketOptions.ticketId, 'GA')))
    .where(eq(events.externalReferenceId, externalReferenceId));
  return row;
}

describe('primarySalesFee on events, shows and ticket options', () => {
  it('is stored on all three levels at creation and answered back; an option without one has none', async () => {
    const { apiKey } = await makePartner('Fees');
    const id = ref();
    const res = await call(create, apiKey, event(id));
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.primarySalesFee).toEqual(EVENT_FEE);
    expect(data.shows[0].primarySalesFee).toEqual(SHOW_FEE);
    expect(data.shows[0].ticketOptions[0].primarySalesFee).toEqual(OPTION_FEE);
    expect(data.shows[0].ticketOptions[1]).not.toHaveProperty('primarySalesFee');
    expect(await storedFees(id)).toMatchObject({ event: EVENT_FEE, show: SHOW_FEE, option: OPTION_FEE });
  });

  it('stores only { type, value } (unknown keys are dropped, like elsewhere in the catalogue)', async () => {
    const { apiKey } = await makePartner('Fees');
    const id = ref();
    const res = await call(
      create,
      apiKey,
      event(id, { primarySalesFee: { type: 'FIXED', value: 0, currency: 'ARS', note: 'x' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.primarySalesFee).toEqual({ type: 'FIXED', value: 0 });
    expect((await storedFees(id)).event).toEqual({ type: 'FIXED', value: 0 });
  });

  it('creates without any fee: no key in the answer, SQL null in the columns', async () => {
    const { apiKey } = await makePartner('Fees');
    const id = ref();
    const plain = event(id, {
      primarySalesFee: undefined,
      shows: [show(`${id}-S1`, { primarySalesFee: undefined, ticketOptions: [option('GA')] })],
    });
    const res = await call(create, apiKey, plain);
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('primarySalesFee');
    expect(res.body.data.shows[0]).not.toHaveProperty('primarySalesFee');
    expect(res.body.data.shows[0].ticketOptions[0]).not.toHaveProperty('primarySalesFee');
    expect(await storedFees(id)).toMatchObject({ eventIsNull: true, showIsNull: true, optionIsNull: true });
  });

  it('PUT without the field keeps each stored fee, also for a show and an option sent without one', async () => {
    const { res } = await putAfterCreate((id) => ({
      externalReferenceId: id,
      title: 'Renamed',
      shows: [{ showId: `${id}-S1`, title: 'Renamed show', ticketOptions: [option('GA', { price: 6000 })] }],
    }));
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.title).toBe('Renamed');
    expect(data.primarySalesFee).toEqual(EVENT_FEE);
    expect(data.shows[0]).toMatchObject({ title: 'Renamed show', primarySalesFee: SHOW_FEE });
    expect(data.shows[0].ticketOptions[0]).toMatchObject({ price: 6000, primarySalesFee: OPTION_FEE });
  });

  it('PUT with a fee replaces it on each level, and a new option or show takes its own', async () => {
    const { res } = await putAfterCreate((id) => ({
      externalReferenceId: id,
      primarySalesFee: { type: 'FIXED', value: 100 },
      shows: [
        {
          showId: `${id}-S1`,
          primarySalesFee: { type: 'PERCENTAGE', value: 100 },
          ticketOptions: [
            option('GA', { primarySalesFee: { type: 'PERCENTAGE', value: 0 } }),
            option('NEW', { primarySalesFee: { type: 'FIXED', value: 12.25 } }),
          ],
        },
        show(`${id}-S2`, { primarySalesFee: { type: 'FIXED', value: 3 } }),
      ],
    }));
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.primarySalesFee).toEqual({ type: 'FIXED', value: 100 });
    expect(data.shows[0].primarySalesFee).toEqual({ type: 'PERCENTAGE', value: 100 });
    const optionFees = data.shows[0].ticketOptions.map((o: { ticketId: string; primarySalesFee?: unknown }) => [
      o.ticketId,
      o.primarySalesFee ?? 'none',
    ]);
    expect(optionFees).toEqual([
      ['GA', { type: 'PERCENTAGE', value: 0 }],
      ['VIP', 'none'],
      ['NEW', { type: 'FIXED', value: 12.25 }],
    ]);
    expect(data.shows[1].primarySalesFee).toEqual({ type: 'FIXED', value: 3 });
  });

  it('PUT with null clears the fee on each level (stored as SQL null)', async () => {
    const { id, res } = await putAfterCreate((id) => ({
      externalReferenceId: id,
      primarySalesFee: null,
      shows: [{ showId: `${id}-S1`, primarySalesFee: null, ticketOptions: [option('GA', { primarySalesFee: null })] }],
    }));
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).not.toHaveProperty('primarySalesFee');
    expect(data.shows[0]).not.toHaveProperty('primarySalesFee');
    expect(data.shows[0].ticketOptions[0]).not.toHaveProperty('primarySalesFee');
    expect(await storedFees(id)).toMatchObject({ eventIsNull: true, showIsNull: true, optionIsNull: true });
  });

  it('refuses a bad type, a negative value and a PERCENTAGE over 100, naming each path (POST and PUT)', async () => {
    const { apiKey } = await makePartner('Fees');
    const id = ref();
    const bad = event(id, {
      primarySalesFee: { type: 'FLAT', value: 2 },
      shows: [
        show(`${id}-S1`, {
          primarySalesFee: { type: 'FIXED', value: -1 },
          ticketOptions: [
            option('GA', { primarySalesFee: { type: 'PERCENTAGE', value: 100.5 } }),
            option('VIP', { primarySalesFee: { type: 'FIXED', value: '5' } }),
          ],
        }),
      ],
    });
    const res = await call(create, apiKey, bad);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, data: null, errors: { code: 'VALIDATION_FAILED' } });
    expect(res.body.errors.details).toEqual(
      expect.arrayContaining([
        { path: 'primarySalesFee.type', message: 'Invalid option: expected one of "FIXED"|"PERCENTAGE"', in: 'body' },
        { path: 'shows[0].primarySalesFee.value', message: 'Too small: expected number to be >=0', in: 'body' },
        {
          path: 'shows[0].ticketOptions[0].primarySalesFee.value',
          message: 'must be at most 100 for a PERCENTAGE fee',
          in: 'body',
        },
        { path: 'shows[0].ticketOptions[1].primarySalesFee.value', message: expect.any(String), in: 'body' },
      ]),
    );
    expect(res.body.errors.details).toHaveLength(4);
    // Nothing was stored: the same event can then be created.
    expect((await call(create, apiKey, event(id))).status).toBe(200);

    const put = await call(
      update,
      apiKey,
      {
        externalReferenceId: id,
        shows: [
          {
            showId: `${id}-S1`,
            ticketOptions: [option('GA', { primarySalesFee: { type: 'PERCENTAGE', value: 101 } })],
          },
        ],
      },
      'PUT',
    );
    expect(put.status).toBe(400);
    expect(put.body.errors.details).toEqual([
      {
        path: 'shows[0].ticketOptions[0].primarySalesFee.value',
        message: 'must be at most 100 for a PERCENTAGE fee',
        in: 'body',
      },
    ]);
    const missing = await call(update, apiKey, { externalReferenceId: id, primarySalesFee: { type: 'FIXED' } }, 'PUT');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.details[0].path).toBe('primarySalesFee.value');
    // A refused PUT changed nothing.
    expect(await storedFees(id)).toMatchObject({ event: EVENT_FEE, show: SHOW_FEE, option: OPTION_FEE });
  });
});
