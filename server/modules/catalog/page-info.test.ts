import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { showDirectory } from './lookups';
import { eventPageInfo } from './lookups';
import { eq } from 'drizzle-orm';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';

describe('eventPageInfo', () => {
  it('answers the event with its shows, the venue (the show overriding the event), images and names', async () => {
    const { partner, apiKey } = await makePartner('Page info');
    const ref = `PI-${partner.id}`;
    await pushEvent(apiKey, ref, [
      testShow('B', {
        date: '2027-07-01T21:00:00+02:00',
        images: [
          { url: 'https://img.example.com/side.jpg', kind: 'secondary' },
          { url: 'javascript:alert(1)' },
          { url: 'https://img.example.com/b.jpg' },
        ],
        location: { venueName: 'Sala B', raw: 'Calle B 2, Madrid', timeZone: 'Europe/Madrid' },
        priceTypes: [{ priceTypeId: 'P1', title: 'Adult' }],
      }),
      testShow('A', { date: '2027-06-01T20:00:00Z', status: 'CANCELLED' }),
    ]);
    const dir = showDirectory(getDb());
    const [row] = await getDb().select({ eventPk: dir.eventPk }).from(dir).where(eq(dir.eventRef, ref));
    const info = await eventPageInfo(row.eventPk, getDb());
    expect(info).toMatchObject({ partnerId: partner.id, externalReferenceId: ref, title: ref, description: 'd' });
    // Ordered by date; the event's own location is empty.
    expect(info?.shows.map((s) => [s.showId, s.status])).toEqual([
      ['A', 'CANCELLED'],
      ['B', 'LIVE'],
    ]);
    expect(info?.shows[0].venue).toEqual({ name: null, address: null, timeZone: null });
    expect(info?.shows[1]).toMatchObject({
      startsAt: new Date('2027-07-01T19:00:00Z'),
      resaleEnabled: true,
      images: ['https://img.example.com/b.jpg', 'https://img.example.com/side.jpg'],
      venue: { name: 'Sala B', address: 'Calle B 2, Madrid', timeZone: 'Europe/Madrid' },
      ticketOptions: [{ id: 'GA', title: 'GA' }],
      priceTypes: [{ id: 'P1', title: 'Adult' }],
    });
    expect(await eventPageInfo('evt_unknown', getDb())).toBeNull();
  });
});
