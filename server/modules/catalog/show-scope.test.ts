import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as cancel } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as rulesPost } from '@/app/v1/events/rules/route';
import { PUT as updateEventRoute } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { events, shows, tickets } from '@/db/schema';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { admit, json, putTicket, queueTickets, syncTickets } from '@/server/testing/ticket-api';
import { processBatch } from '@/server/modules/tickets/service';
import { effectiveResaleRules, faceValueMinor } from './rules';

/**
 * Two events of one partner numbering their shows the same way ("1", "2" in each): every endpoint
 * that names a show names its event too, and must act on that event's show only.
 */
let seq = 0;
const staff = createCallerFactory(appRouter)({
  staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' },
});

async function twoEvents() {
  const partner = await makePartner('Show scope');
  const tag = `${Date.now()}-${++seq}`;
  const a = `SA-${tag}`;
  const b = `SB-${tag}`;
  const priceTypes = [{ priceTypeId: 'ADULT' }];
  await pushEvent(partner.apiKey, a, [
    testShow('1', { title: 'A one', priceTypes }),
    testShow('2', { title: 'A two' }),
  ]);
  await pushEvent(partner.apiKey, b, [
    testShow('1', { title: 'B one', priceTypes }),
    testShow('2', { title: 'B two' }),
  ]);
  const rows = await getDb()
    .select({ pk: shows.id, ref: events.externalReferenceId, showId: shows.showId, eventPk: events.id })
    .from(shows)
    .innerJoin(events, eq(events.id, shows.eventId))
    .where(eq(shows.partnerId, partner.partner.id));
  const pk = (ref: string, showId: string) => rows.find((r) => r.ref === ref && r.showId === showId)!.pk;
  const eventPk = (ref: string) => rows.find((r) => r.ref === ref)!.eventPk;
  return { ...partner, a, b, pk, eventPk };
}

type Setup = Awaited<ReturnType<typeof twoEvents>>;

const ticket = (ref: string, showId: string, ticketId: string, extra: Record<string, unknown> = {}) => ({
  externalReferenceEventId: ref,
  showId,
  buyer: 'fan@example.com',
  ticketId,
  ticketAccess: { type: 'URL', locator: `https://qr.example/${ticketId}.png`, status: 'LOCKED' },
  ticketOptionId: 'GA',
  ...extra,
});

async function showOf(s: Setup, ticketId: string) {
  const [row] = await getDb()
    .select({ showPk: tickets.showPk, eventPk: tickets.eventPk, status: tickets.status })
    .from(tickets)
    .where(and(eq(tickets.partnerId, s.partner.id), eq(tickets.ticketId, ticketId)));
  return row;
}

async function showRow(s: Setup, ref: string, showId: string) {
  const [row] = await getDb()
    .select()
    .from(shows)
    .where(eq(shows.id, s.pk(ref, showId)));
  return row;
}

describe('showId is scoped to its event', () => {
  it('two events of one partner both have shows "1" and "2"; updating B\'s show 1 leaves A\'s alone', async () => {
    const s = await twoEvents();
    expect(new Set([s.pk(s.a, '1'), s.pk(s.a, '2'), s.pk(s.b, '1'), s.pk(s.b, '2')]).size).toBe(4);

    const res = await json(
      await updateEventRoute(
        apiRequest('/v1/events', {
          method: 'PUT',
          key: s.apiKey,
          body: {
            externalReferenceId: s.b,
            shows: [{ showId: '1', title: 'B one, moved', date: '2027-07-01T20:00:00Z' }],
          },
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await showRow(s, s.b, '1')).toMatchObject({ title: 'B one, moved', showRescheduled: true });
    expect(await showRow(s, s.a, '1')).toMatchObject({ title: 'A one', showRescheduled: false });
  });

  it('tickets (sync and queued) land on the show of the event they name, and PUT moves between events', async () => {
    const s = await twoEvents();
    const sync = await syncTickets(s.apiKey, [ticket(s.a, '1', `${s.a}-T1`), ticket(s.b, '1', `${s.b}-T1`)]);
    expect(sync.body.data).toMatchObject({ imported: 2, failed: 0 });
    expect(await showOf(s, `${s.a}-T1`)).toMatchObject({ showPk: s.pk(s.a, '1'), eventPk: s.eventPk(s.a) });
    expect(await showOf(s, `${s.b}-T1`)).toMatchObject({ showPk: s.pk(s.b, '1'), eventPk: s.eventPk(s.b) });

    const queued = await queueTickets(s.apiKey, [ticket(s.b, '2', `${s.b}-Q2`), ticket(s.a, '2', `${s.a}-Q2`)]);
    expect(queued.status).toBe(200);
    await processBatch(queued.body.data.batchId);
    expect((await showOf(s, `${s.b}-Q2`)).showPk).toBe(s.pk(s.b, '2'));
    expect((await showOf(s, `${s.a}-Q2`)).showPk).toBe(s.pk(s.a, '2'));

    // Naming only the other event moves the ticket to that event's show "1".
    const moved = await putTicket(s.apiKey, `${s.a}-T1`, { externalReferenceEventId: s.b });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ externalReferenceEventId: s.b, showId: '1' });
    expect(await showOf(s, `${s.a}-T1`)).toMatchObject({ showPk: s.pk(s.b, '1'), eventPk: s.eventPk(s.b) });

    expect((await admit(s.apiKey, `${s.b}-T1`)).status).toBe(200);
  });

  it('cancelling show 1 of event B cancels only that show and invalidates only its tickets', async () => {
    const s = await twoEvents();
    await syncTickets(s.apiKey, [
      ticket(s.a, '1', `${s.a}-C1`),
      ticket(s.b, '1', `${s.b}-C1`),
      ticket(s.b, '2', `${s.b}-C2`),
    ]);
    const res = await cancel(
      apiRequest(`/v1/events/${s.b}/cancellation?showId=1`, { method: 'POST', key: s.apiKey }),
      routeParams({ externalReferenceId: s.b }),
    );
    expect(res.status).toBe(200);
    expect((await showRow(s, s.b, '1')).status).toBe('CANCELLED');
    expect((await showRow(s, s.a, '1')).status).toBe('LIVE');
    expect((await showRow(s, s.b, '2')).status).toBe('LIVE');
    expect((await showOf(s, `${s.b}-C1`)).status).toBe('INVALIDATED');
    expect((await showOf(s, `${s.a}-C1`)).status).toBe('VALID');
    expect((await showOf(s, `${s.b}-C2`)).status).toBe('VALID');

    // A's show 1 still takes tickets; B's does not.
    const after = await syncTickets(s.apiKey, [ticket(s.a, '1', `${s.a}-C3`), ticket(s.b, '1', `${s.b}-C3`)]);
    expect(after.body.data.tickets.map((t: { status: string }) => t.status)).toEqual(['imported', 'failed']);
  });

  it("rules name the show of their event: a combination and a resale rule on B's show 1 do not reach A's", async () => {
    const s = await twoEvents();
    const res = await json(
      await rulesPost(
        apiRequest('/v1/events/rules', {
          key: s.apiKey,
          body: [
            {
              externalReferenceEventId: s.b,
              showId: '1',
              ticketOptionId: 'GA',
              priceTypeId: 'ADULT',
              price: 25,
              ruleType: 'COMBINATION',
            },
            { externalReferenceEventId: s.b, showId: '1', ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 110 } },
          ],
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await faceValueMinor(s.pk(s.b, '1'), 'GA', 'ADULT')).toBe(2500);
    expect(await faceValueMinor(s.pk(s.a, '1'), 'GA', 'ADULT')).toBe(4000);
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.b, showId: '1' })).toEqual({
      PRICE_LIMITS: { maxPercentOfFace: 110 },
    });
    expect(await effectiveResaleRules(s.partner.id, { externalReferenceEventId: s.a, showId: '1' })).toEqual({});

    // A ticket with price type ADULT is only valid where the pair is declared: on B's show 1.
    const t = await syncTickets(s.apiKey, [
      ticket(s.b, '1', `${s.b}-P1`, { priceTypeId: 'ADULT' }),
      ticket(s.a, '1', `${s.a}-P1`, { priceTypeId: 'ADULT' }),
    ]);
    expect(t.body.data.tickets.map((x: { status: string }) => x.status)).toEqual(['imported', 'failed']);
  });

  it("the dashboard finds each event's own show 1 and its tickets", async () => {
    const s = await twoEvents();
    await syncTickets(s.apiKey, [ticket(s.a, '1', `${s.a}-D1`), ticket(s.b, '1', `${s.b}-D1`)]);
    const ofA = await staff.catalog.show({ partnerId: s.partner.id, eventId: s.eventPk(s.a), showId: s.pk(s.a, '1') });
    const ofB = await staff.catalog.show({ partnerId: s.partner.id, eventId: s.eventPk(s.b), showId: s.pk(s.b, '1') });
    expect([ofA.title, ofB.title]).toEqual(['A one', 'B one']);
    const ticketsOfB = await staff.catalog.showTickets({
      partnerId: s.partner.id,
      eventId: s.eventPk(s.b),
      showId: s.pk(s.b, '1'),
    });
    expect(ticketsOfB.items.map((t) => t.ticketId)).toEqual([`${s.b}-D1`]);
  });
});
