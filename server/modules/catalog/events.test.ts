import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { events } from '@/db/schema';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as create, PUT as update } from '@/app/v1/events/route';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';

let seq = 0;
const ref = () => `EV-${Date.now()}-${++seq}`;

function show(showId: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'Night one',
    date: '2027-04-02T21:00:00.000-03:00',
    showId,
    ticketOptions: [
      { title: 'General', ticketId: `${showId}-GA`, description: 'Standing', currency: 'ARS', price: 5500 },
      {
        title: 'VIP',
        ticketId: `${showId}-VIP`,
        description: 'Seated',
        currency: 'ARS',
        price: '12000.50',
        area: 'North',
      },
    ],
    images: [{ url: 'https://img.example/1.png' }],
    configuration: {},
    ...extra,
  };
}

function event(externalReferenceId: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'The Band',
    description: '<p>Live</p>',
    externalReferenceId,
    shows: [show(`${externalReferenceId}-S1`)],
    location: { city: 'Buenos Aires', venueName: 'Arena', timeZone: 'America/Argentina/Buenos_Aires' },
    configuration: { redemption: { policy: 'NONE' } },
    ...extra,
  };
}

async function call(fn: (req: Request, ctx?: never) => Promise<Response>, key: string, body: unknown, method = 'POST') {
  const res = await fn(apiRequest('/v1/events', { method, key, body }));
  return { status: res.status, body: await res.json() };
}

describe('POST /v1/events', () => {
  it('creates an event and answers it with the response-side defaults', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    const res = await call(create, apiKey, event(id));
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeNull();
    const data = res.body.data;
    expect(data.externalReferenceId).toBe(id);
    expect(data.location).toMatchObject({
      city: 'Buenos Aires',
      venueName: 'Arena',
      state: '',
      address: '',
      country: '',
      postalCode: '',
    });
    const [s] = data.shows;
    expect(s).toMatchObject({
      showId: `${id}-S1`,
      status: 'LIVE',
      showRescheduled: false,
      resaleEnabled: true,
      date: '2027-04-02T21:00:00.000-03:00',
    });
    expect(s.images).toEqual([{ url: 'https://img.example/1.png', kind: 'main' }]);
    expect(s.ticketOptions).toEqual([
      {
        title: 'General',
        ticketId: `${id}-S1-GA`,
        description: 'Standing',
        currency: 'ARS',
        price: 5500,
        webVisibility: true,
      },
      {
        title: 'VIP',
        ticketId: `${id}-S1-VIP`,
        description: 'Seated',
        currency: 'ARS',
        price: 12000.5,
        webVisibility: true,
        area: 'North',
      },
    ]);
    expect(s.priceTypes).toEqual([]);
  });

  it('stores the Price Detail model: price types with their defaults', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    const res = await call(
      create,
      apiKey,
      event(id, {
        shows: [
          show(`${id}-S1`, {
            priceTypes: [
              { priceTypeId: 'ADULT', title: 'Adult' },
              { priceTypeId: 'CHILD', invisible: true, inventory: { soldPercentage: 40 } },
            ],
          }),
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.shows[0].priceTypes).toEqual([
      { priceTypeId: 'ADULT', title: 'Adult', webVisibility: true, invisible: false },
      { priceTypeId: 'CHILD', webVisibility: true, invisible: true, inventory: { soldPercentage: 40 } },
    ]);
  });

  it('answers 409 for an existing event, per partner only', async () => {
    const a = await makePartner('Events A');
    const b = await makePartner('Events B');
    const id = ref();
    expect((await call(create, a.apiKey, event(id))).status).toBe(200);
    const again = await call(create, a.apiKey, event(id));
    expect(again.status).toBe(409);
    expect(again.body.errors.code).toBe('CONFLICT');
    // The same partner identifiers are free for another partner.
    expect((await call(create, b.apiKey, event(id))).status).toBe(200);
  });

  it('accepts a showId another event of the partner already uses (showIds are scoped to their event)', async () => {
    const { apiKey } = await makePartner('Events');
    const first = ref();
    await call(create, apiKey, event(first));
    const res = await call(create, apiKey, event(ref(), { shows: [show(`${first}-S1`)] }));
    expect(res.status).toBe(200);
    expect(res.body.data.shows[0].showId).toBe(`${first}-S1`);
  });

  it('names every missing or invalid field by its path', async () => {
    const { apiKey } = await makePartner('Events');
    const bad = event(ref(), { title: undefined });
    (bad.shows[0] as Record<string, unknown>).status = 'OPEN';
    delete (bad.shows[0].ticketOptions[0] as Record<string, unknown>).currency;
    const res = await call(create, apiKey, bad);
    expect(res.status).toBe(400);
    const paths = res.body.errors.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['title', 'shows[0].status', 'shows[0].ticketOptions[0].currency']));
  });

  it('refuses a price with more decimals than the currency has', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    const s = show(`${id}-S1`);
    s.ticketOptions[0].price = '10.505';
    const res = await call(create, apiKey, event(id, { shows: [s] }));
    expect(res.status).toBe(400);
    expect(res.body.errors.details[0].path).toBe('shows[0].ticketOptions[0].price');
  });
});

describe('seating.svgCode: partner seat maps', () => {
  const HOSTILE =
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "x">]>' +
    '<svg viewBox="0 0 100 50" onload="alert(1)" style="position:fixed">' +
    '<script>alert(2)</script><style>@import url(https://evil.example/x.css)</style>' +
    '<a xlink:href="javascript:alert(3)"><rect width="40" height="20" fill="url(https://evil.example/p)"/></a>' +
    '<foreignObject><iframe src="https://evil.example/"></iframe></foreignObject>' +
    '<use href="https://evil.example/x.svg#a"/><image href="https://tracker.example/p.png"/>' +
    '<set attributeName="onclick" to="alert(4)"/>' +
    '<circle data-seat="1-2" cx="5" cy="5" r="2" onclick="alert(5)"/><text>Stage &x;</text></svg>';
  const SANITISED =
    '<svg viewBox="0 0 100 50"><rect width="40" height="20"></rect><use></use>' +
    '<circle data-seat="1-2" cx="5" cy="5" r="2"></circle><text>Stage &amp;x;</text></svg>';

  async function storedSeating(partnerId: string, externalReferenceId: string) {
    const [row] = await getDb()
      .select({ seating: events.seating })
      .from(events)
      .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, externalReferenceId)));
    return row?.seating;
  }

  it('stores and echoes a hostile map sanitised, on create and on update', async () => {
    const { apiKey, partner } = await makePartner('Seat maps');
    const id = ref();
    const created = await call(
      create,
      apiKey,
      event(id, { seating: { image: 'https://img.example/map.png', svgCode: HOSTILE } }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data.seating).toEqual({ image: 'https://img.example/map.png', svgCode: SANITISED });
    expect(await storedSeating(partner.id, id)).toEqual({ image: 'https://img.example/map.png', svgCode: SANITISED });

    const updated = await call(
      update,
      apiKey,
      { externalReferenceId: id, seating: { svgCode: HOSTILE.replace('0 0 100 50', '0 0 200 100') } },
      'PUT',
    );
    expect(updated.status).toBe(200);
    // Present replaces: the image goes with the old map.
    const resanitised = { svgCode: SANITISED.replace('0 0 100 50', '0 0 200 100') };
    expect(updated.body.data.seating).toEqual(resanitised);
    expect(await storedSeating(partner.id, id)).toEqual(resanitised);
    expect(SANITISED).not.toMatch(
      /script|\son[a-z]+=|javascript:|foreignObject|iframe|url\(|style|<image|<set|https?:/i,
    );
  });

  it('answers 400 naming seating.svgCode for a map over 1 MB, and stores nothing', async () => {
    const { apiKey, partner } = await makePartner('Seat maps');
    const id = ref();
    const huge = `<svg><path d="M0 0${' L1 1'.repeat(1_000_000)}"/></svg>`; // 5 MB
    const res = await call(create, apiKey, event(id, { seating: { svgCode: huge } }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      message: 'Invalid request body: seating.svgCode: must be at most 1 MB',
      code: 'VALIDATION_FAILED',
      details: [{ path: 'seating.svgCode', message: 'must be at most 1 MB', in: 'body' }],
    });
    expect(await storedSeating(partner.id, id)).toBeUndefined();

    await call(create, apiKey, event(id, { seating: { svgCode: '<svg></svg>' } }));
    const put = await call(update, apiKey, { externalReferenceId: id, seating: { svgCode: huge } }, 'PUT');
    expect(put.status).toBe(400);
    expect(put.body.errors.details).toEqual([{ path: 'seating.svgCode', message: 'must be at most 1 MB', in: 'body' }]);
    expect(await storedSeating(partner.id, id)).toEqual({ svgCode: '<svg></svg>' });
  });

  it('answers 400 naming seating.svgCode for markup that is not an SVG document; blank means no map', async () => {
    const { apiKey } = await makePartner('Seat maps');
    for (const svgCode of ['https://img.example/map.png', '<script>alert(1)</script>', '<svg></svg><svg></svg>']) {
      const res = await call(create, apiKey, event(ref(), { seating: { svgCode } }));
      expect(res.status, svgCode).toBe(400);
      expect(res.body.errors.details).toEqual([
        { path: 'seating.svgCode', message: 'must be an SVG document: one <svg> element', in: 'body' },
      ]);
    }
    const blank = await call(create, apiKey, event(ref(), { seating: { svgCode: '' } }));
    expect(blank.status).toBe(200);
    expect(blank.body.data.seating).toEqual({ svgCode: '' });
  });
});

describe('PUT /v1/events', () => {
  it('answers 404 for an unknown event, and for another partner’s', async () => {
    const a = await makePartner('Events A');
    const b = await makePartner('Events B');
    const id = ref();
    await call(create, a.apiKey, event(id));
    expect((await call(update, a.apiKey, { externalReferenceId: ref(), title: 'x' }, 'PUT')).status).toBe(404);
    const other = await call(update, b.apiKey, { externalReferenceId: id, title: 'stolen' }, 'PUT');
    expect(other.status).toBe(404);
    expect(other.body.errors.message).toBe('Event not found');
  });

  it('merges: present fields replace, omitted ones keep; shows and options matched by id, never deleted', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id, { shows: [show(`${id}-S1`), show(`${id}-S2`)] }));
    const res = await call(
      update,
      apiKey,
      {
        externalReferenceId: id,
        title: 'The Band (new lineup)',
        shows: [
          {
            showId: `${id}-S1`,
            ticketOptions: [
              { title: 'General', ticketId: `${id}-S1-GA`, description: 'Standing', currency: 'ARS', price: 6000 },
              { title: 'Balcony', ticketId: `${id}-S1-BAL`, description: 'Upstairs', currency: 'ARS', price: 4000 },
            ],
          },
        ],
      },
      'PUT',
    );
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.title).toBe('The Band (new lineup)');
    expect(data.description).toBe('<p>Live</p>');
    expect(data.shows.map((s: { showId: string }) => s.showId)).toEqual([`${id}-S1`, `${id}-S2`]);
    const options = data.shows[0].ticketOptions;
    expect(options.map((o: { ticketId: string; price: number }) => [o.ticketId, o.price])).toEqual([
      [`${id}-S1-GA`, 6000],
      [`${id}-S1-VIP`, 12000.5],
      [`${id}-S1-BAL`, 4000],
    ]);
    expect(options[0].title).toBe('General');
  });

  it('keeps stored visibility flags of an option and a price type resent without them', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    const base = show(`${id}-S1`);
    const hiddenGa = { ...base.ticketOptions[0], webVisibility: false };
    const created = await call(
      create,
      apiKey,
      event(id, {
        shows: [
          {
            ...base,
            ticketOptions: [hiddenGa, base.ticketOptions[1]],
            priceTypes: [{ priceTypeId: 'ADULT', webVisibility: false, invisible: true }, { priceTypeId: 'KID' }],
          },
        ],
      }),
    );
    expect(created.body.data.shows[0].ticketOptions.map((o: { webVisibility: boolean }) => o.webVisibility)).toEqual([
      false,
      true,
    ]);
    const flags = (types: { webVisibility: boolean; invisible: boolean }[]) =>
      types.map((t) => [t.webVisibility, t.invisible]);
    expect(flags(created.body.data.shows[0].priceTypes)).toEqual([
      [false, true],
      [true, false],
    ]);
    const { webVisibility: _omitted, ...gaWithoutFlag } = hiddenGa;
    const res = await call(
      update,
      apiKey,
      {
        externalReferenceId: id,
        shows: [
          {
            showId: `${id}-S1`,
            ticketOptions: [{ ...gaWithoutFlag, price: 6100 }],
            priceTypes: [{ priceTypeId: 'ADULT', title: 'Adult' }],
          },
        ],
      },
      'PUT',
    );
    expect(res.status).toBe(200);
    const [ga] = res.body.data.shows[0].ticketOptions;
    expect(ga).toMatchObject({ price: 6100, webVisibility: false });
    expect(res.body.data.shows[0].priceTypes[0]).toMatchObject({
      title: 'Adult',
      webVisibility: false,
      invisible: true,
    });
  });

  it('marks a show rescheduled when its date changes, not when the same instant is resent', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id));
    const same = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: `${id}-S1`, date: '2027-04-03T00:00:00.000Z' }] },
      'PUT',
    );
    expect(same.body.data.shows[0].showRescheduled).toBe(false);
    const moved = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: `${id}-S1`, date: '2027-04-09T21:00:00.000-03:00' }] },
      'PUT',
    );
    expect(moved.body.data.shows[0]).toMatchObject({ showRescheduled: true, date: '2027-04-09T21:00:00.000-03:00' });
  });

  it('keeps resale off only while false is sent; true re-enables it', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id));
    const s = `${id}-S1`;
    const off = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: s, resaleEnabled: false }] },
      'PUT',
    );
    expect(off.body.data.shows[0].resaleEnabled).toBe(false);
    const omitted = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: s, title: 'Renamed' }] },
      'PUT',
    );
    expect(omitted.body.data.shows[0].resaleEnabled).toBe(false);
    const on = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: s, resaleEnabled: true }] },
      'PUT',
    );
    expect(on.body.data.shows[0].resaleEnabled).toBe(true);
  });

  it('adds a complete new show and refuses an incomplete one', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id));
    const incomplete = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: `${id}-NEW`, title: 'Matinee' }] },
      'PUT',
    );
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors.details[0].path).toBe('shows[0]');
    const added = await call(update, apiKey, { externalReferenceId: id, shows: [show(`${id}-NEW`)] }, 'PUT');
    expect(added.body.data.shows.map((s: { showId: string }) => s.showId)).toEqual([`${id}-S1`, `${id}-NEW`]);
  });

  it('cancels a show sent as CANCELLED, and refuses to make it LIVE again', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id));
    const res = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: `${id}-S1`, status: 'CANCELLED' }] },
      'PUT',
    );
    expect(res.body.data.shows[0].status).toBe('CANCELLED');
    const back = await call(
      update,
      apiKey,
      { externalReferenceId: id, shows: [{ showId: `${id}-S1`, status: 'LIVE' }] },
      'PUT',
    );
    expect(back.status).toBe(400);
    expect(back.body.errors.details[0].path).toBe('shows[0].status');
  });
});

describe('POST /v1/events/{externalReferenceId}/cancellation', () => {
  const cancelCall = async (key: string, id: string, showId?: string) => {
    const res = await cancel(
      apiRequest(
        `/v1/events/${encodeURIComponent(id)}/cancellation${showId ? `?showId=${encodeURIComponent(showId)}` : ''}`,
        { method: 'POST', key },
      ),
      routeParams({ externalReferenceId: id }),
    );
    return { status: res.status, body: await res.json() };
  };

  it('cancels every show of the event, idempotently', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id, { shows: [show(`${id}-S1`), show(`${id}-S2`)] }));
    for (let i = 0; i < 2; i++) {
      const res = await cancelCall(apiKey, id);
      expect(res.status).toBe(200);
      expect(res.body.data.shows.map((s: { status: string }) => s.status)).toEqual(['CANCELLED', 'CANCELLED']);
    }
  });

  it('cancels only the named show', async () => {
    const { apiKey } = await makePartner('Events');
    const id = ref();
    await call(create, apiKey, event(id, { shows: [show(`${id}-S1`), show(`${id}-S2`)] }));
    const res = await cancelCall(apiKey, id, `${id}-S2`);
    expect(res.body.data.shows.map((s: { status: string }) => s.status)).toEqual(['LIVE', 'CANCELLED']);
  });

  it('answers 404 for an unknown event or show, and for another partner’s event', async () => {
    const a = await makePartner('Events A');
    const b = await makePartner('Events B');
    const id = ref();
    await call(create, a.apiKey, event(id));
    expect((await cancelCall(a.apiKey, ref())).status).toBe(404);
    const noShow = await cancelCall(a.apiKey, id, 'nope');
    expect(noShow.status).toBe(404);
    expect(noShow.body.errors.message).toBe('Show not found');
    expect((await cancelCall(b.apiKey, id)).status).toBe(404);
    const still = await call(update, a.apiKey, { externalReferenceId: id }, 'PUT');
    expect(still.body.data.shows[0].status).toBe('LIVE');
  });
});
