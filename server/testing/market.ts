import { expect } from 'vitest';
import { POST as rulesPost } from '@/app/v1/events/rules/route';
import { apiRequest, makePartner, pushEvent, testShow } from './fixtures';
import { syncTickets } from './ticket-api';

/**
 * A partner with one event (show `1`, option GA at 40.00 EUR, `daysAhead` days away unless `show` says
 * otherwise) and `tickets` (default T1, T2) at 40.00 owned by `seller`, pushed through the partner API.
 */
export async function sellerMarket(opts: {
  seller: string;
  name?: string;
  daysAhead?: number;
  show?: Record<string, unknown>;
  tickets?: Record<string, unknown>[];
}) {
  const { partner, apiKey } = await makePartner(opts.name ?? 'Market');
  const ref = `evt-${partner.id}`;
  const date = new Date(Date.now() + (opts.daysAhead ?? 365) * 24 * 3600_000).toISOString();
  await pushEvent(apiKey, ref, [testShow('1', { date, ...opts.show })]);
  const res = await syncTickets(
    apiKey,
    (opts.tickets ?? [{ ticketId: 'T1' }, { ticketId: 'T2' }]).map((t) => ({
      externalReferenceEventId: ref,
      showId: '1',
      ticketOptionId: 'GA',
      buyer: opts.seller,
      ticketAccess: { type: 'OTHER', locator: 'x' },
      price: 40,
      ...t,
    })),
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { partner, partnerId: partner.id, key: apiKey, ref };
}

/** `POST /v1/events/rules` through its route handler; it must be accepted. */
export async function postRules(key: string, body: unknown[]) {
  const res = await rulesPost(apiRequest('/v1/events/rules', { key, body }));
  expect(res.status).toBe(200);
}
