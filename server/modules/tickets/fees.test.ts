import { describe, expect, it } from 'vitest';
import { POST as createEvent, PUT as updateEvent } from '@/app/v1/events/route';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { getDb } from '@/db';
import { setPrimarySalesFee } from '@/server/modules/partners';
import { apiRequest, eventRequest, makePartner } from '@/server/testing/fixtures';
import { resolvePrimarySalesFee } from './fees';

let seq = 0;

const PARTNER_FEE = { type: 'PERCENTAGE', value: 10 } as const;
const EVENT_FEE = { type: 'PERCENTAGE', value: 8 } as const;
const SHOW_FEE = { type: 'PERCENTAGE', value: 6.5 } as const;
const S1_GA_FEE = { type: 'FIXED', value: 250 } as const;
const S2_GA_FEE = { type: 'FIXED', value: 300.75 } as const;

const option = (ticketId: string, extra: Record<string, unknown> = {}) => ({
  title: ticketId,
  ticketId,
  description: 'd',
  currency: 'ARS',
  price: 5500,
  ...extra,
});

/**
 * A partner with a default fee and one event (fee) of two shows. S1 (fee) has GA (fee) and VIP (none);
 * S2 (no fee) has a GA of its own (another fee), so the option is matched within the ticket's show.
 * Tickets: OWN (GA of S1, its own fee), GA1 (GA of S1), VIP1 (VIP of S1), GA2 (GA of S2).
 */
async function setup() {
  const partner = await makePartner('Fee chain');
  await setPrimarySalesFee({ partnerId: partner.partner.id, primarySalesFee: PARTNER_FEE }, getDb());
  const ref = `FC-${Date.now()}-${++seq}`;
  const created = await createEvent(
    eventRequest(
      partner.apiKey,
      ref,
      [
        {
          title: 'S1',
          date: '2027-06-01T20:00:00Z',
          showId: `${ref}-S1`,
          images: [],
          configuration: {},
          primarySalesFee: SHOW_FEE,
          ticketOptions: [option('GA', { primarySalesFee: S1_GA_FEE }), option('VIP')],
        },
        {
          title: 'S2',
          date: '2027-06-02T20:00:00Z',
          showId: `${ref}-S2`,
          images: [],
          configuration: {},
          ticketOptions: [option('GA', { primarySalesFee: S2_GA_FEE })],
        },
      ],
      { title: 'E', primarySalesFee: EVENT_FEE },
    ),
  );
  expect(created.status).toBe(200);
  const ticket = (ticketId: string, showId: string, ticketOptionId: string, extra: Record<string, unknown> = {}) => ({
    externalReferenceEventId: ref,
    showId,
    buyer: 'fan@example.com',
    ticketId,
    ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
    ticketOptionId,
    ...extra,
  });
  const body = [
    // Extra keys in a ticket's fee are kept with the ticket, but the resolver answers { type, value }.
    ticket('OWN', `${ref}-S1`, 'GA', { primarySalesFee: { type: 'FIXED', value: 99.5, note: 'promo' } }),
    ticket('GA1', `${ref}-S1`, 'GA'),
    ticket('VIP1', `${ref}-S1`, 'VIP'),
    ticket('GA2', `${ref}-S2`, 'GA'),
  ];
  const res = await syncPost(apiRequest('/v1/sync/tickets', { key: partner.apiKey, body }));
  expect((await res.json()).data.imported).toBe(4);
  const putEvent = async (patch: Record<string, unknown>) => {
    const r = await updateEvent(
      apiRequest('/v1/events', { method: 'PUT', key: partner.apiKey, body: { externalReferenceId: ref, ...patch } }),
    );
    expect(r.status).toBe(200);
  };
  return { ...partner, partnerId: partner.partner.id, ref, putEvent };
}

describe('resolvePrimarySalesFee', () => {
  it('walks ticket → ticket option → show → event → partner, then none', async () => {
    const s = await setup();
    const resolve = (ticketId: string) => resolvePrimarySalesFee(s.partnerId, ticketId, getDb());

    expect(await resolve('OWN')).toEqual({ fee: { type: 'FIXED', value: 99.5 }, source: 'ticket' });
    expect(await resolve('GA1')).toEqual({ fee: S1_GA_FEE, source: 'ticketOption' });
    // Same option id in another show: that show's option.
    expect(await resolve('GA2')).toEqual({ fee: S2_GA_FEE, source: 'ticketOption' });
    expect(await resolve('VIP1')).toEqual({ fee: SHOW_FEE, source: 'show' });

    // Each level cleared in turn, VIP1 falls to the next one.
    await s.putEvent({ shows: [{ showId: `${s.ref}-S1`, primarySalesFee: null }] });
    expect(await resolve('VIP1')).toEqual({ fee: EVENT_FEE, source: 'event' });
    // GA1 still has its option's fee: only the show's was cleared.
    expect(await resolve('GA1')).toEqual({ fee: S1_GA_FEE, source: 'ticketOption' });

    await s.putEvent({ primarySalesFee: null });
    expect(await resolve('VIP1')).toEqual({ fee: PARTNER_FEE, source: 'partner' });

    await setPrimarySalesFee({ partnerId: s.partnerId, primarySalesFee: null }, getDb());
    expect(await resolve('VIP1')).toBeNull();

    // The ticket's own fee still wins over everything; the option's over the (now empty) rest.
    expect(await resolve('OWN')).toEqual({ fee: { type: 'FIXED', value: 99.5 }, source: 'ticket' });
    await s.putEvent({ shows: [{ showId: `${s.ref}-S1`, ticketOptions: [option('GA', { primarySalesFee: null })] }] });
    expect(await resolve('GA1')).toBeNull();
  });

  it('follows a fee set later at a nearer level', async () => {
    const s = await setup();
    expect(await resolvePrimarySalesFee(s.partnerId, 'VIP1', getDb())).toEqual({ fee: SHOW_FEE, source: 'show' });
    await s.putEvent({
      shows: [
        { showId: `${s.ref}-S1`, ticketOptions: [option('VIP', { primarySalesFee: { type: 'FIXED', value: 0 } })] },
      ],
    });
    // A zero fee is a fee: it stops the walk.
    expect(await resolvePrimarySalesFee(s.partnerId, 'VIP1', getDb())).toEqual({
      fee: { type: 'FIXED', value: 0 },
      source: 'ticketOption',
    });
  });

  it('tickets share the schema: a PERCENTAGE over 100 is refused, 100 is accepted', async () => {
    const s = await setup();
    const ticket = (ticketId: string, value: number) => ({
      externalReferenceEventId: s.ref,
      showId: `${s.ref}-S1`,
      buyer: 'fan@example.com',
      ticketId,
      ticketAccess: { type: 'OTHER', locator: 'C' },
      ticketOptionId: 'VIP',
      primarySalesFee: { type: 'PERCENTAGE', value },
    });
    const refused = await syncPost(apiRequest('/v1/sync/tickets', { key: s.apiKey, body: [ticket('P1', 100.5)] }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors.details).toEqual([
      { path: '[0].primarySalesFee.value', message: 'must be at most 100 for a PERCENTAGE fee', in: 'body' },
    ]);
    const ok = await syncPost(apiRequest('/v1/sync/tickets', { key: s.apiKey, body: [ticket('P2', 100)] }));
    expect((await ok.json()).data.imported).toBe(1);
    expect(await resolvePrimarySalesFee(s.partnerId, 'P2', getDb())).toEqual({
      fee: { type: 'PERCENTAGE', value: 100 },
      source: 'ticket',
    });
  });

  it("answers NOT_FOUND for another partner's ticket and an unknown one", async () => {
    const s = await setup();
    const other = await makePartner('Fee chain other');
    await setPrimarySalesFee({ partnerId: other.partner.id, primarySalesFee: PARTNER_FEE }, getDb());
    await expect(resolvePrimarySalesFee(other.partner.id, 'OWN', getDb())).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Ticket not found',
    });
    await expect(resolvePrimarySalesFee(s.partnerId, 'NOPE', getDb())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
