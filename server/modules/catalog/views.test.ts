import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as createEvent } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { eventRequest, makePartner, testShow } from '@/server/testing/fixtures';

/* The views the catalog defines for other modules' SQL (db/schema/catalog.ts, migration 0039). */

describe("the catalogue's primary sales fee views", () => {
  it("give each show's fee beside its event's, and each ticket option's by show and ticketId", async () => {
    const { partner, apiKey } = await makePartner('Catalog fee views');
    const ref = `CFV-${partner.id}`;
    const res = await createEvent(
      eventRequest(
        apiKey,
        ref,
        [
          testShow('S1', {
            primarySalesFee: { type: 'PERCENTAGE', value: 6.5 },
            ticketOptions: [
              {
                title: 'GA',
                ticketId: 'GA',
                description: 'g',
                currency: 'EUR',
                price: '40.00',
                primarySalesFee: { type: 'FIXED', value: 2 },
              },
            ],
          }),
          testShow('S2'),
        ],
        { title: 'E', primarySalesFee: { type: 'PERCENTAGE', value: 8 } },
      ),
    );
    expect(res.status).toBe(200);

    const shows = await getDb().execute<{ show_id: string; show_fee: unknown; event_fee: unknown }>(sql`
      select s.show_id, v.show_fee, v.event_fee from show_primary_sales_fees v
      join shows s on s.id = v.show_pk where s.partner_id = ${partner.id} order by s.show_id`);
    expect(shows.map((r) => [r.show_id, r.show_fee, r.event_fee])).toEqual([
      ['S1', { type: 'PERCENTAGE', value: 6.5 }, { type: 'PERCENTAGE', value: 8 }],
      ['S2', null, { type: 'PERCENTAGE', value: 8 }],
    ]);

    const options = await getDb().execute<{ show_id: string; ticket_id: string; fee: unknown }>(sql`
      select s.show_id, v.ticket_id, v.fee from ticket_option_primary_sales_fees v
      join shows s on s.id = v.show_pk where s.partner_id = ${partner.id} order by s.show_id`);
    expect(options.map((r) => [r.show_id, r.ticket_id, r.fee])).toEqual([
      ['S1', 'GA', { type: 'FIXED', value: 2 }],
      ['S2', 'GA', null],
    ]);
  });
});
