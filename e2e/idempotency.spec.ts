import { expect, test } from './fixtures';
import { createPartner, listTicket, pushUsdEvent, RUN } from './helpers';

/**
 * `Idempotency-Key` over HTTP against the built server: a retried buy intention answers the first answer
 * again with `Idempotent-Replayed: true`, while the same call without the key really runs (and is refused,
 * the listing being held already by the first).
 */
test('a retried call with its Idempotency-Key replays the first answer and changes nothing @database-flow', async ({
  request,
}) => {
  const { partnerId, apiKey } = await createPartner(`E2E idempotency ${RUN}`);
  const ref = `idem-${RUN}`;
  await pushUsdEvent(request, apiKey, ref, 'Idempotent night');
  const ticketId = `idem-${RUN}`;
  const synced = await request.post('/v1/sync/tickets', {
    headers: { Authorization: apiKey },
    data: [
      {
        externalReferenceEventId: ref,
        showId: '1',
        ticketOptionId: 'GA',
        ticketId,
        buyer: { email: 'seller@example.com' },
        ticketAccess: { type: 'OTHER', locator: 'CODE-1' },
      },
    ],
  });
  expect(synced.status(), await synced.text()).toBe(200);
  const { listingId } = await listTicket({ partnerId, sellerEmail: 'seller@example.com', ticketId, price: '60' });

  const hold = (key: string | null, user = 'buyer@example.com') =>
    request.post('/v1/marketplace/buyingflow/buyIntention', {
      headers: { Authorization: apiKey, ...(key === null ? {} : { 'Idempotency-Key': key }) },
      data: { items: [listingId], user },
    });
  const key = `hold-${RUN}`;
  const first = await hold(key);
  const firstText = await first.text();
  expect(first.status(), firstText).toBe(200);
  expect(first.headers()['idempotent-replayed']).toBeUndefined();

  const replay = await hold(key);
  expect(replay.status()).toBe(200);
  expect(replay.headers()['idempotent-replayed']).toBe('true');
  expect(await replay.text()).toBe(firstText);
  expect(replay.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);

  // Without the key the call runs, and the listing is held once already: the replay ran nothing.
  expect((await hold(null)).status()).toBe(409);

  const reused = await hold(key, 'someone.else@example.com');
  expect(reused.status()).toBe(422);
  expect((await reused.json()).errors.details).toEqual([
    { path: 'Idempotency-Key', message: 'was used with another request', in: 'header' },
  ]);
  expect((await hold('k'.repeat(256))).status()).toBe(400);
});
