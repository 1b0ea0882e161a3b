/**
 * A partner's first afternoon with Encore, written against a client generated from Encore's OpenAPI
 * document (`npx openapi-typescript <encore>/v1/openapi.json -o encore-api.d.ts`) with `openapi-fetch`.
 * The test suite generates the types from the running API, type-checks this file against them and runs
 * it (e2e/typed-client.spec.ts), so what /docs shows as the quick start is proven on every change.
 */
import createClient from 'openapi-fetch';
import type { paths } from './encore-api';

export type Encore = ReturnType<typeof encoreClient>;

/** One client per API key; every call below is typed: paths, parameters, bodies and answers. */
export function encoreClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: apiKey } });
}

/** Encore's answers are an envelope; a call that did not answer 200 stops the integration with its error. */
function dataOf<T>(answer: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (answer.data) return answer.data.data;
  throw new Error(`Encore answered ${answer.response.status}: ${JSON.stringify(answer.error)}`);
}

/** 1. The event, its show and ticket option, and a price rule: resale between 50 % and 120 % of face value. */
export async function publishEvent(encore: Encore, eventRef: string) {
  const event = dataOf(
    await encore.POST('/v1/events', {
      body: {
        externalReferenceId: eventRef,
        title: 'Quick start live',
        description: 'The quick start event',
        location: { city: 'Madrid', venueName: 'Sala Norte', timeZone: 'Europe/Madrid' },
        configuration: {},
        shows: [
          {
            showId: '1',
            title: 'Night one',
            date: '2027-06-12T21:30:00+02:00',
            images: [],
            configuration: {},
            ticketOptions: [{ ticketId: 'GA', title: 'General', description: 'Standing', currency: 'EUR', price: 40 }],
          },
        ],
      },
    }),
  );
  dataOf(
    await encore.POST('/v1/events/rules', {
      body: [
        {
          externalReferenceEventId: eventRef,
          ruleType: 'PRICE_LIMITS',
          rules: { minPercentOfFace: 50, maxPercentOfFace: 120 },
        },
      ],
    }),
  );
  return event;
}

/** 2. The tickets fans bought on the partner's platform; the batch imports in the background. */
export async function syncTickets(encore: Encore, eventRef: string, tickets: { ticketId: string; buyer: string }[]) {
  const accepted = dataOf(
    await encore.POST('/v1/tickets', {
      body: tickets.map((t) => ({
        externalReferenceEventId: eventRef,
        showId: '1',
        ticketOptionId: 'GA',
        ticketId: t.ticketId,
        buyer: t.buyer,
        price: 40,
        ticketAccess: { type: 'URL' as const, locator: `https://tickets.example/${t.ticketId}` },
      })),
    }),
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const batch = dataOf(
      await encore.GET('/v1/tickets/batches/{batchId}', { params: { path: { batchId: accepted.batchId } } }),
    );
    if (batch.status === 'completed') return batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${accepted.batchId} did not complete`);
}

/**
 * 3. Where to send fans: the show's resale market, and a ticket holder's selling flow. `returnTo` is where
 * Encore's pages lead back to on the partner's site (required for the buying flow).
 */
export async function fanUrls(encore: Encore, eventRef: string, ticketId: string) {
  const returnTo = `https://tickets.example/events/${eventRef}`;
  const buyingUrl = dataOf(
    await encore.GET('/v1/marketplace/buyingflow/url/entrypoint', {
      params: { query: { externalReferenceEventId: eventRef, showId: '1', returnTo, lang: 'es' } },
    }),
  );
  const sellingUrl = dataOf(
    await encore.GET('/v1/marketplace/sellingflow/url/entrypoint', { params: { query: { ticketId, returnTo } } }),
  );
  return { buyingUrl, sellingUrl };
}

/** 4. What is on sale for the show, cheapest first, with the fees a buyer pays shown up front. */
export async function listedTickets(encore: Encore, eventRef: string) {
  const listed = dataOf(
    await encore.GET('/v1/marketplace/items/events/{eventId}/listedTickets', {
      params: { path: { eventId: eventRef }, query: { showId: '1' } },
    }),
  );
  return [...listed].sort((a, b) => (a.pricePerTicketWithFees ?? 0) - (b.pricePerTicketWithFees ?? 0));
}

/**
 * 5. Hold a listing for a buyer on the partner's own checkout, with an idempotency key: a retry after a
 * timeout (same key, same body) answers the first call's result again instead of a second hold.
 */
export async function holdForBuyer(encore: Encore, listingId: string, buyer: string, idempotencyKey: string) {
  const hold = () =>
    encore.POST('/v1/marketplace/buyingflow/buyIntention', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: { items: [listingId], user: buyer },
    });
  const first = await hold();
  const retried = await hold();
  return {
    intention: dataOf(first),
    retried: dataOf(retried),
    replayed: retried.response.headers.get('Idempotent-Replayed') === 'true',
  };
}
