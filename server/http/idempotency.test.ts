import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as eventsPost, PUT as eventsPut } from '@/app/v1/events/route';
import { PUT as channelListingPut } from '@/app/v1/channels/listings/[listingId]/route';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { POST as checkoutPost } from '@/app/v1/marketplace/checkout/url/route';
import { GET as meGet } from '@/app/v1/me/route';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { getDb } from '@/db';
import { defineRoute } from '@/server/lib/contract';
import { AppError } from '@/server/lib/errors';
import { createApiKey, createChannel } from '@/server/modules/partners';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { idempotentCall as call, partnerWithTicketBatch, rows } from '@/server/testing/idempotency';
import { sweepIdempotencyKeys } from './idempotency';
import { handle } from './route';

const eventBody = (ref: string, title = 'First title') => ({
  title,
  description: 'd',
  externalReferenceId: ref,
  location: {},
  configuration: {},
  shows: [testShow('1')],
});

const eventTitles = (partnerId: string) =>
  rows<{ title: string }>(sql`select title from events where partner_id = ${partnerId}`).then((r) =>
    r.map((e) => e.title),
  );

describe('Idempotency-Key on mutating calls', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed, and runs nothing again', async () => {
    const p = await makePartner('Idem replay');
    const ref = `evt-${p.partner.id}`;
    const first = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'create-1' });
    expect([first.status, first.replayed]).toEqual([200, null]);

    // Renamed since: a replay must not run the create again (it would not undo the rename).
    const renamed = await call(eventsPut, '/v1/events', p.apiKey, {
      method: 'PUT',
      body: { externalReferenceId: ref, title: 'Renamed' },
    });
    expect(renamed.status).toBe(200);

    // The same request with its keys in another order is the same request.
    const { shows, ...rest } = eventBody(ref);
    const again = await call(eventsPost, '/v1/events', p.apiKey, { body: { shows, ...rest }, idem: 'create-1' });
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.body.data.title).toBe('First title');
    expect(again.requestId).not.toBe(first.requestId);
    expect(await eventTitles(p.partner.id)).toEqual(['Renamed']);
    const stored = await rows<{ state: string; method: string; path: string }>(
      sql`select state, method, path from idempotency_keys where partner_id = ${p.partner.id}`,
    );
    expect(stored).toEqual([{ state: 'done', method: 'POST', path: '/v1/events' }]);
  });

  it('POST /v1/tickets replayed queues one batch, and answers the same batch', async () => {
    const { p, tickets } = await partnerWithTicketBatch('Idem tickets');
    const first = await call(ticketsPost, '/v1/tickets', p.apiKey, { body: tickets, idem: 'batch-1' });
    const second = await call(ticketsPost, '/v1/tickets', p.apiKey, { body: tickets, idem: 'batch-1' });
    expect(first.status).toBe(200);
    expect([second.status, second.replayed, second.text]).toEqual([200, 'true', first.text]);
    const batches = await rows(sql`select id from ticket_batches where partner_id = ${p.partner.id}`);
    expect(batches).toHaveLength(1);
  });

  it('the same key with another body or path is a 422 naming the header; the first answer stays', async () => {
    const p = await makePartner('Idem reuse');
    const ref = `evt-${p.partner.id}`;
    const first = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'k' });
    expect(first.status).toBe(200);
    const other = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref, 'Other'), idem: 'k' });
    expect(other.status).toBe(422);
    expect(other.replayed).toBeNull();
    expect(other.body.errors).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: expect.stringMatching(/^Idempotency-Key was already used with another request \(POST \/v1\/events/),
      details: [{ path: 'Idempotency-Key', message: 'was used with another request', in: 'header' }],
    });
    const otherPath = await call(cancelPost, `/v1/events/${ref}/cancellation`, p.apiKey, {
      idem: 'k',
      params: { externalReferenceId: ref },
    });
    expect(otherPath.status).toBe(422);
    expect(await eventTitles(p.partner.id)).toEqual(['First title']);
    expect((await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'k' })).text).toBe(first.text);
  });

  it('a key over 255 characters (or empty) is a 400 naming the header; 255 is accepted', async () => {
    const p = await makePartner('Idem length');
    const ref = `evt-${p.partner.id}`;
    for (const idem of ['x'.repeat(256), '']) {
      const res = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem });
      expect(res.status).toBe(400);
      expect(res.body.errors.details).toEqual([
        { path: 'Idempotency-Key', message: 'must be 1 to 255 characters', in: 'header' },
      ]);
    }
    expect(await eventTitles(p.partner.id)).toEqual([]);
    const ok = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'x'.repeat(255) });
    expect(ok.status).toBe(200);
  });

  it('a GET ignores the header, however long', async () => {
    const p = await makePartner('Idem get');
    const me = await call(meGet, '/v1/me', p.apiKey, { method: 'GET', idem: 'y'.repeat(300) });
    expect([me.status, me.replayed]).toEqual([200, null]);
    expect(await rows(sql`select key from idempotency_keys where partner_id = ${p.partner.id}`)).toEqual([]);
  });

  it('keys are per partner and per channel: one key used by each runs for each', async () => {
    const a = await makePartner('Idem A');
    const b = await makePartner('Idem B');
    for (const p of [a, b]) {
      const res = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody('same-ref'), idem: 'shared' });
      expect([res.status, res.replayed]).toEqual([200, null]);
      expect(await eventTitles(p.partner.id)).toEqual(['First title']);
    }

    // A's partner key used `shared` on the partner API; its channels may use it too, each its own.
    await pushEvent(a.apiKey, `evt-${a.partner.id}`, [testShow('1')]);
    const hub = await createChannel({ partnerId: a.partner.id, name: 'Hub' }, getDb());
    const { secret: hubKey } = await createApiKey(
      { partnerId: a.partner.id, kind: 'channels', channelId: hub.id },
      getDb(),
    );
    const listing = {
      eventId: `evt-${a.partner.id}`,
      showId: '1',
      ticketOptionId: 'GA',
      quantity: 1,
      price: 45,
      currency: 'EUR',
    };
    for (const key of [a.channelsApiKey, hubKey]) {
      const put = () =>
        call(channelListingPut, '/v1/channels/listings/L1', key, {
          method: 'PUT',
          body: listing,
          idem: 'shared',
          params: { listingId: 'L1' },
        });
      const first = await put();
      expect([first.status, first.replayed]).toEqual([200, null]);
      const again = await put();
      expect([again.status, again.replayed, again.text]).toEqual([200, 'true', first.text]);
    }
    const scopes = await rows<{ scope: string }>(
      sql`select scope from idempotency_keys where key = 'shared' and partner_id = ${a.partner.id} order by scope`,
    );
    expect(scopes).toHaveLength(3);
  });

  it('20 buy intentions at once with one key hold the listing once; the others replay that answer', async () => {
    const p = await makePartner('Idem race');
    const ref = `evt-${p.partner.id}`;
    await pushEvent(p.apiKey, ref, [testShow('1')]);
    const listed = await call(channelListingPut, '/v1/channels/listings/R1', p.channelsApiKey, {
      method: 'PUT',
      body: { eventId: ref, showId: '1', ticketOptionId: 'GA', quantity: 1, price: 45, currency: 'EUR' },
      params: { listingId: 'R1' },
    });
    expect(listed.status).toBe(200);
    const [listing] = await rows<{ id: string }>(sql`select id from listings where partner_id = ${p.partner.id}`);
    const body = { items: [listing.id], user: 'buyer@example.com' };

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(buyIntentionPost, '/v1/marketplace/buyingflow/buyIntention', p.apiKey, { body, idem: 'hold-1' }),
      ),
    );
    const fresh = results.filter((r) => r.replayed === null);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].status).toBe(200);
    // Every other call waited for the first and replayed it (none needed the 409: the first was quick).
    for (const r of results) expect([r.status, r.text]).toEqual([200, fresh[0].text]);
    const holds = await rows(sql`select id from buy_intentions where partner_id = ${p.partner.id}`);
    expect(holds).toHaveLength(1);
    // Without the key the same request really runs, and the listing is held already.
    const unkeyed = await call(buyIntentionPost, '/v1/marketplace/buyingflow/buyIntention', p.apiKey, { body });
    expect(unkeyed.status).toBe(409);

    // The checkout URL likewise: replayed, not made twice.
    const checkout = () =>
      call(checkoutPost, '/v1/marketplace/checkout/url', p.apiKey, {
        body: { listingIds: [listing.id] },
        idem: 'checkout-1',
      });
    const c1 = await checkout();
    const c2 = await checkout();
    expect([c2.status, c2.replayed, c2.text]).toEqual([c1.status, 'true', c1.text]);
  });

  it('a 4xx the call answered is stored and replayed; a 400 from input checks is not', async () => {
    const p = await makePartner('Idem 4xx');
    const ref = `evt-${p.partner.id}`;
    const cancel = () =>
      call(cancelPost, `/v1/events/${ref}/cancellation`, p.apiKey, { idem: 'c', params: { externalReferenceId: ref } });
    const missing = await cancel();
    expect([missing.status, missing.body.errors.message]).toEqual([404, 'Event not found']);
    await pushEvent(p.apiKey, ref, [testShow('1')]);
    const replayed = await cancel();
    expect([replayed.status, replayed.replayed, replayed.text]).toEqual([404, 'true', missing.text]);

    // Refused before it ran: nothing is stored, so the key is still free for the corrected request.
    const bad = await call(eventsPost, '/v1/events', p.apiKey, { body: { title: 'x' }, idem: 'fix-me' });
    expect(bad.status).toBe(400);
    const fixed = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(`${ref}-2`), idem: 'fix-me' });
    expect([fixed.status, fixed.replayed]).toEqual([200, null]);
  });

  it('a failure on our side (5xx) is not stored: the retry with the key runs again', async () => {
    const p = await makePartner('Idem 5xx');
    let calls = 0;
    const flaky = handle(
      defineRoute({
        method: 'POST',
        path: '/v1/test/flaky',
        operationId: 'testFlaky',
        tag: 'Test',
        summary: 'fails once',
        auth: 'partner',
        body: z.object({ n: z.number() }),
        response: z.object({ calls: z.number() }),
      }),
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database went away');
        if (calls === 2) throw new AppError('BAD_GATEWAY', 'The partner verification endpoint timed out');
        return { calls };
      },
    );
    const first = await call(flaky, '/v1/test/flaky', p.apiKey, { body: { n: 1 }, idem: 'f' });
    expect(first.status).toBe(500);
    const gateway = await call(flaky, '/v1/test/flaky', p.apiKey, { body: { n: 1 }, idem: 'f' });
    expect([gateway.status, gateway.replayed]).toEqual([502, null]);
    const retry = await call(flaky, '/v1/test/flaky', p.apiKey, { body: { n: 1 }, idem: 'f' });
    expect([retry.status, retry.replayed, retry.body.data]).toEqual([200, null, { calls: 3 }]);
    const replay = await call(flaky, '/v1/test/flaky', p.apiKey, { body: { n: 1 }, idem: 'f' });
    expect([replay.replayed, replay.body.data, calls]).toEqual(['true', { calls: 3 }, 3]);
  });

  it('a call that meets a running claim of its key answers 409 after waiting; a dead claim is taken over', async () => {
    const p = await makePartner('Idem busy');
    const ref = `evt-${p.partner.id}`;
    const fingerprintOf = async (idem: string) => {
      await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem });
      const [row] = await rows<{ fingerprint: string }>(
        sql`select fingerprint from idempotency_keys where partner_id = ${p.partner.id} and key = ${idem}`,
      );
      return row.fingerprint;
    };
    const fingerprint = await fingerprintOf('probe');
    const claim = (key: string, age: string) =>
      getDb()
        .execute(sql`insert into idempotency_keys (scope, key, partner_id, fingerprint, method, path, claim, claimed_at)
        values (${p.partner.id}, ${key}, ${p.partner.id}, ${fingerprint}, 'POST', '/v1/events', 'other', now() - ${age}::interval)`);

    await claim('busy', '1 second');
    const started = Date.now();
    const busy = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'busy' });
    expect(busy.status).toBe(409);
    expect(busy.body.errors.message).toBe(
      'A request with this Idempotency-Key is still in progress; retry after it has finished',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);

    await claim('dead', '10 minutes');
    const takenOver = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref), idem: 'dead' });
    // It ran (the event exists since the probe, so the handler's own answer is a 409) and stored its answer.
    expect([takenOver.status, takenOver.replayed, takenOver.body.errors.message]).toEqual([
      409,
      null,
      'Event already exists: use PUT /v1/events to update it',
    ]);
    const [dead] = await rows<{ state: string; claim: string }>(
      sql`select state, claim from idempotency_keys where partner_id = ${p.partner.id} and key = 'dead'`,
    );
    expect(dead.state).toBe('done');
    expect(dead.claim).not.toBe('other');
  }, 30_000);

  it('the sweep deletes keys after 24 hours, and then the key is free for another request', async () => {
    const p = await makePartner('Idem sweep');
    const ref = (name: string) => `evt-${p.partner.id}-${name}`;
    for (const idem of ['old', 'young', 'expired-unswept']) {
      const res = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref(idem)), idem });
      expect(res.status).toBe(200);
    }
    await getDb().execute(sql`update idempotency_keys set created_at = now() - interval '24 hours 1 minute'
      where partner_id = ${p.partner.id} and key in ('old', 'expired-unswept')`);

    // Past 24 hours a key is free even before the sweep has run.
    const reused = await call(eventsPost, '/v1/events', p.apiKey, {
      body: eventBody(ref('reused'), 'Reused'),
      idem: 'expired-unswept',
    });
    expect([reused.status, reused.replayed, reused.body.data.title]).toEqual([200, null, 'Reused']);

    expect(await sweepIdempotencyKeys(getDb())).toBeGreaterThanOrEqual(1);
    const left = await rows<{ key: string }>(
      sql`select key from idempotency_keys where partner_id = ${p.partner.id} order by key`,
    );
    expect(left.map((r) => r.key)).toEqual(['expired-unswept', 'young']);
    const again = await call(eventsPost, '/v1/events', p.apiKey, {
      body: eventBody(ref('again'), 'Again'),
      idem: 'old',
    });
    expect([again.status, again.replayed, again.body.data.title]).toEqual([200, null, 'Again']);
    const young = await call(eventsPost, '/v1/events', p.apiKey, { body: eventBody(ref('other')), idem: 'young' });
    expect(young.status).toBe(422);
  });
});
