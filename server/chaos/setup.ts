import { partnerTicket } from '@/server/testing/partner-ticket';
import type { Market } from './traffic';

/**
 * A partner's market on the running instances, the way the e2e suite makes one: the partner with its keys,
 * its webhook endpoint and its listings through the server's test-only set-up calls (server/http/
 * test-hooks.ts, opened by the run's TEST_HOOKS_SECRET), its event and tickets through the partner API.
 */

export const SELLER = 'seller@chaos.test';
/** Where the fan's buy page leads back to (the partner's site). */
const RETURN_TO = 'https://tickets.partner.example/chaos';

/** A test-only set-up call on the instance at `base`; its JSON. */
export async function setUp<T>(
  base: string,
  secret: string,
  action: string,
  body: Record<string, unknown>,
): Promise<T> {
  const res = await fetch(`${base}/api/test-hooks/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-hooks-secret': secret },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`set-up call ${action} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A partner API call that must succeed; its envelope's data. */
export async function v1<T>(base: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/**
 * A new partner with one event (show `1`, standing at 40 EUR), `listings` tickets owned by SELLER each
 * listed at 45 EUR, and the fan buy page's address for the show.
 */
export async function createMarket(base: string, secret: string, name: string, listings: number): Promise<Market> {
  const { partnerId, apiKey } = await setUp<{ partnerId: string; apiKey: string }>(base, secret, 'partner', { name });
  const ref = `CHAOS-${name.replace(/\W+/g, '-')}-${Date.now().toString(36)}`;
  await v1(base, apiKey, 'POST', '/v1/events', {
    title: `Chaos ${name}`,
    description: 'The chaos run’s event',
    externalReferenceId: ref,
    location: { city: 'Madrid', venueName: 'Sala Norte', timeZone: 'Europe/Madrid' },
    configuration: {},
    shows: [
      {
        title: 'Night one',
        showId: '1',
        date: new Date(Date.now() + 120 * 24 * 3600_000).toISOString(),
        images: [],
        configuration: {},
        ticketOptions: [{ title: 'General', ticketId: 'GA', description: 'Standing', currency: 'EUR', price: 40 }],
      },
    ],
  });
  const ticketIds = Array.from({ length: listings }, (_, i) => `L-${String(i).padStart(4, '0')}`);
  await v1(
    base,
    apiKey,
    'POST',
    '/v1/sync/tickets',
    ticketIds.map((t) => partnerTicket(ref, t, SELLER)),
  );
  const listingIds: string[] = [];
  for (let i = 0; i < ticketIds.length; i += 8) {
    const made = await Promise.all(
      ticketIds.slice(i, i + 8).map((ticketId) =>
        setUp<{ listingId: string }>(base, secret, 'listing', {
          partnerId,
          sellerEmail: SELLER,
          ticketId,
          price: '45.00',
        }),
      ),
    );
    listingIds.push(...made.map((m) => m.listingId));
  }
  const entry = await v1<string>(
    base,
    apiKey,
    'GET',
    `/v1/marketplace/buyingflow/url/entrypoint?externalReferenceEventId=${ref}&showId=1&returnTo=${encodeURIComponent(RETURN_TO)}`,
  );
  const url = new URL(entry);
  return { partnerId, key: apiKey, ref, pagePath: url.pathname + url.search, listings: listingIds };
}
