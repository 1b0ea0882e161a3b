import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EncoreApiError, EncoreClient, EncoreConnectionError, type RetryEvent } from './index.js';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from './retry.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Drop the connection instead of answering. */
  hangUp?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

/** A stand-in for Encore over real HTTP: answers from a script, one entry per request, and records them. */
const script: Scripted[] = [];
const seen: Seen[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    });
    const next = script.shift() ?? { status: 200, body: ok('default') };
    if (next.hangUp) return req.socket.destroy();
    setTimeout(() => {
      const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body ?? null);
      res.writeHead(next.status, {
        'content-type': 'application/json',
        'x-request-id': `req_${seen.length}`,
        ...next.headers,
      });
      res.end(text);
    }, next.delayMs ?? 0);
  });
});
let baseUrl = '';

const ok = (data: unknown) => ({ status: 200, data, errors: null });
const failure = (status: number, code: string, message: string, details?: unknown[]) => ({
  status,
  data: null,
  errors: { message, code, ...(details ? { details } : {}) },
});

function client(retries: RetryEvent[] = [], options: Partial<ConstructorParameters<typeof EncoreClient>[0]> = {}) {
  return new EncoreClient({
    baseUrl,
    apiKey: 'sk_test_abc',
    baseDelayMs: 10,
    maxDelayMs: 40,
    onRetry: (r) => retries.push(r),
    ...options,
  });
}

const hold = { body: { items: ['lst_1'], user: 'luis@example.com' } };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  script.length = 0;
  seen.length = 0;
});

describe('calls', () => {
  it('send the key, a JSON body and a new Idempotency-Key per mutating call; answer the envelope data', async () => {
    script.push(
      { status: 200, body: ok({ id: 'bi_1' }) },
      { status: 200, body: ok({ id: 'bi_2' }), headers: { 'idempotent-replayed': 'true' } },
      { status: 200, body: ok({ partnerId: 'ptr_1' }) },
    );
    const encore = client();
    const first = await encore.request('POST', '/v1/marketplace/buyingflow/buyIntention', hold);
    expect(first).toMatchObject({
      data: { id: 'bi_1' },
      status: 200,
      requestId: 'req_1',
      replayed: false,
      attempts: 1,
    });
    expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const second = await encore.request('POST', '/v1/marketplace/buyingflow/buyIntention', hold);
    expect(second.replayed).toBe(true);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(await encore.get('/v1/me')).toEqual({ partnerId: 'ptr_1' });

    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/v1/marketplace/buyingflow/buyIntention'],
      ['POST', '/v1/marketplace/buyingflow/buyIntention'],
      ['GET', '/v1/me'],
    ]);
    expect(seen[0].headers).toMatchObject({
      authorization: 'sk_test_abc',
      'content-type': 'application/json',
      'idempotency-key': first.idempotencyKey,
    });
    expect(JSON.parse(seen[0].body)).toEqual(hold.body);
    expect(seen[2].headers['idempotency-key']).toBeUndefined();
  });

  it('fill path parameters encoded, repeat array query values, and take a key of the caller or none', async () => {
    const encore = client();
    await encore.get('/v1/marketplace/items/events/{eventId}/listedTickets', {
      path: { eventId: 'A/B C' },
      query: { showId: '1' },
    });
    await encore.post('/v1/marketplace/buyingflow/buyIntention', { ...hold, idempotencyKey: 'cart-42' });
    await encore.post('/v1/marketplace/buyingflow/buyIntention', { ...hold, idempotencyKey: false });
    expect(seen[0].url).toBe('/v1/marketplace/items/events/A%2FB%20C/listedTickets?showId=1');
    expect(seen[1].headers['idempotency-key']).toBe('cart-42');
    expect(seen[2].headers['idempotency-key']).toBeUndefined();
  });

  it('answer a body that is no envelope as it is (the OpenAPI document)', async () => {
    script.push({ status: 200, body: { openapi: '3.1.0', paths: {} } });
    expect(await client().get('/v1/openapi.json')).toEqual({ openapi: '3.1.0', paths: {} });
  });
});

describe('errors', () => {
  it("throw the envelope's error as an EncoreApiError, never retrying a 400", async () => {
    const details = [{ path: 'items[0]', message: 'is required', in: 'body' }];
    script.push({ status: 400, body: failure(400, 'VALIDATION_FAILED', 'Invalid request body', details) });
    const retries: RetryEvent[] = [];
    const err = await client(retries)
      .post('/v1/marketplace/buyingflow/buyIntention', hold)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EncoreApiError);
    expect(err).toMatchObject({
      name: 'EncoreApiError',
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid request body',
      details,
      requestId: 'req_1',
      attempts: 1,
    });
    expect(seen).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('name an answer without an envelope UNEXPECTED_RESPONSE (a proxy page)', async () => {
    script.push({ status: 404, body: '<html>Not here</html>' });
    const err = (await client()
      .get('/v1/me')
      .catch((e: unknown) => e)) as EncoreApiError;
    expect(err).toMatchObject({ status: 404, code: 'UNEXPECTED_RESPONSE', details: [] });
    expect(err.message).toMatch(/^Encore answered 404 Not Found without an error envelope/);
  });
});

describe('retries', () => {
  it('wait out a 429 for its Retry-After seconds, then send the same call with the same key', async () => {
    script.push(
      { status: 429, headers: { 'retry-after': '1' }, body: failure(429, 'RATE_LIMITED', 'Rate limit exceeded') },
      { status: 200, body: ok({ id: 'bi_1' }) },
    );
    const retries: RetryEvent[] = [];
    const answer = await client(retries).request('POST', '/v1/marketplace/buyingflow/buyIntention', hold);
    expect(answer).toMatchObject({ data: { id: 'bi_1' }, attempts: 2 });
    expect(seen).toHaveLength(2);
    expect(seen[1].headers['idempotency-key']).toBe(seen[0].headers['idempotency-key']);
    expect(seen[1].body).toBe(seen[0].body);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(990);
    expect(retries).toMatchObject([{ method: 'POST', attempt: 1, delayMs: 1000, error: { status: 429 } }]);
  });

  it('read Retry-After as an HTTP date too, on a 503', async () => {
    const at = new Date(Date.now() + 1500).toUTCString();
    script.push({ status: 503, headers: { 'retry-after': at }, body: '' }, { status: 200, body: ok('fine') });
    const retries: RetryEvent[] = [];
    expect(await client(retries).get('/v1/me')).toBe('fine');
    expect(retries[0].delayMs).toBeGreaterThan(0);
    expect(retries[0].delayMs).toBeLessThanOrEqual(1500);
  });

  it('back off exponentially on 5xx and give up after maxAttempts with the last error', async () => {
    for (let i = 0; i < 4; i++) script.push({ status: 502, body: failure(502, 'BAD_GATEWAY', `down ${i}`) });
    const retries: RetryEvent[] = [];
    const err = (await client(retries, { maxAttempts: 4 })
      .post('/v1/marketplace/buyingflow/buyIntention', hold)
      .catch((e: unknown) => e)) as EncoreApiError;
    expect(err).toMatchObject({ status: 502, message: 'down 3', attempts: 4 });
    expect(new Set(seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // baseDelayMs 10, doubling, capped at 40: each wait within [ceiling/2, ceiling].
    expect(
      retries.map((r) => r.delayMs >= [5, 10, 20][r.attempt - 1] && r.delayMs <= [10, 20, 40][r.attempt - 1]),
    ).toEqual([true, true, true]);
  });

  it('retry a call without a key only after a 429, which Encore answers before running anything', async () => {
    script.push({ status: 503, body: failure(503, 'INTERNAL', 'busy') });
    const once = client();
    await expect(
      once.post('/v1/marketplace/buyingflow/buyIntention', { ...hold, idempotencyKey: false }),
    ).rejects.toMatchObject({ status: 503, attempts: 1 });
    script.push({ status: 429, headers: { 'retry-after': '0' }, body: failure(429, 'RATE_LIMITED', 'slow') });
    await once.post('/v1/marketplace/buyingflow/buyIntention', { ...hold, idempotencyKey: false });
    expect(seen).toHaveLength(3);
  });

  it('retry a 409 only when it says Retry-After (a call with this key still running), never another 4xx', async () => {
    script.push(
      { status: 409, headers: { 'retry-after': '0' }, body: failure(409, 'CONFLICT', 'still in progress') },
      { status: 200, body: ok({ id: 'bi_1' }) },
      { status: 409, body: failure(409, 'CONFLICT', 'Not available any more') },
      { status: 422, body: failure(422, 'IDEMPOTENCY_KEY_REUSED', 'other request') },
    );
    const encore = client();
    expect(await encore.post('/v1/marketplace/buyingflow/buyIntention', hold)).toEqual({ id: 'bi_1' });
    await expect(encore.post('/v1/marketplace/buyingflow/buyIntention', hold)).rejects.toMatchObject({ status: 409 });
    await expect(encore.post('/v1/marketplace/buyingflow/buyIntention', hold)).rejects.toMatchObject({ status: 422 });
    expect(seen).toHaveLength(4);
  });

  it('do not wait out a Retry-After above maxRetryAfterMs: the error says how long instead', async () => {
    script.push({ status: 429, headers: { 'retry-after': '120' }, body: failure(429, 'RATE_LIMITED', 'later') });
    await expect(client().get('/v1/me')).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(seen).toHaveLength(1);
  });

  it('retry a lost connection or a timed-out attempt, then throw an EncoreConnectionError', async () => {
    script.push({ status: 0, hangUp: true }, { status: 200, body: ok('back') });
    expect(await client().get('/v1/me')).toBe('back');

    script.push({ status: 200, delayMs: 300, body: ok('late') }, { status: 200, delayMs: 300, body: ok('late') });
    const err = (await client([], { timeoutMs: 50, maxAttempts: 2 })
      .post('/v1/marketplace/buyingflow/buyIntention', hold)
      .catch((e: unknown) => e)) as EncoreConnectionError;
    expect(err).toBeInstanceOf(EncoreConnectionError);
    expect(err.message).toMatch(/no answer from Encore \(timed out after 50 ms\)/);
    expect(err.attempts).toBe(2);
    // Both attempts were the same call: one key, answered once by Encore however often it ran.
    expect(seen[2].headers['idempotency-key']).toBe(seen[3].headers['idempotency-key']);
  });

  it('stop at once when the caller aborts, during a wait too', async () => {
    script.push({ status: 503, headers: { 'retry-after': '30' }, body: failure(503, 'INTERNAL', 'busy') });
    const controller = new AbortController();
    const call = client().get('/v1/me', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the caller gave up')), 100);
    await expect(call).rejects.toThrow('the caller gave up');
    expect(seen).toHaveLength(1);
  });
});

describe('the retry policy', () => {
  it('reads Retry-After in seconds or as an HTTP date, and ignores what is neither', () => {
    const now = Date.parse('2027-06-12T20:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 12 Jun 2027 20:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 12 Jun 2027 19:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-1', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('doubles the backoff per attempt up to its cap, half of it random', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, DEFAULT_RETRY, () => 0))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, DEFAULT_RETRY, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });
});

/** Never called: the compiler (the root `tsc`) checks that the calls below are refused. */
export async function refusedByTheCompiler(encore: EncoreClient) {
  // @ts-expect-error: no such path
  await encore.get('/v1/nothing-here');
  // @ts-expect-error: the path has a parameter
  await encore.get('/v1/tickets/batches/{batchId}');
  // @ts-expect-error: `items` is a list of listing ids
  await encore.post('/v1/marketplace/buyingflow/buyIntention', { body: { items: 'lst_1', user: 'a@b.c' } });
  // @ts-expect-error: a buy intention needs its body
  await encore.post('/v1/marketplace/buyingflow/buyIntention');
  // @ts-expect-error: a GET has no body
  await encore.get('/v1/me', { body: {} });
  const me = await encore.get('/v1/me');
  // @ts-expect-error: the answer is typed (`data` of the envelope): a partner id is a string
  const id: number = me.partnerId;
  return id;
}
