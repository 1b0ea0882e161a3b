import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { events } from '@/db/schema';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { putInventory, putInventoryDetails, staffEventInventory } from './inventory';

/*
 * The event page in the dashboard shows what the partner pushed through the inventory API: event capacity,
 * per show and per option, with when it was last sent; another partner's event shows nothing.
 */
describe('staffEventInventory', () => {
  it('answers each stored scope with its show and time; none for an event not yet reported or of another partner', async () => {
    const p = await makePartner('Inventory staff');
    const ref = `evt-${p.partner.id}`;
    await pushEvent(p.apiKey, ref, [testShow('1'), testShow('2')]);
    const [{ eventId }] = await getDb()
      .select({ eventId: events.id })
      .from(events)
      .where(and(eq(events.partnerId, p.partner.id), eq(events.externalReferenceId, ref)));
    expect(await staffEventInventory({ partnerId: p.partner.id, eventId }, getDb())).toEqual([]);

    await putInventory(p.partner.id, ref, '2', { capacity: 900, releasedTickets: 500, soldPercentage: 40 }, getDb());
    await putInventoryDetails(
      p.partner.id,
      ref,
      [{ showId: '1', ticketOptionId: 'GA', inventory: { releasedTickets: 120, soldOut: true } }],
      getDb(),
    );
    const rows = await staffEventInventory({ partnerId: p.partner.id, eventId }, getDb());
    const view = rows.map(({ updatedAt, ...r }) => {
      expect(updatedAt).toBeInstanceOf(Date);
      return [r.showId, r.ticketOptionId, r.capacity, r.releasedTickets, r.soldOut, r.soldPercentage];
    });
    expect(view).toEqual(
      expect.arrayContaining([
        [null, null, 900, null, null, null],
        ['2', null, null, 500, null, 40],
        ['1', 'GA', null, 120, true, null],
      ]),
    );
    expect(view).toHaveLength(3);

    const other = await makePartner('Inventory other');
    expect(await staffEventInventory({ partnerId: other.partner.id, eventId }, getDb())).toEqual([]);
  });
});
