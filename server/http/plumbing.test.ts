import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GET as channelsMe } from '@/app/v1/channels/me/route';
import { GET as me } from '@/app/v1/me/route';
import { GET as unknownGet, POST as unknownPost } from '@/app/v1/[...path]/route';
import { getDb } from '@/db';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import { flushTouches } from '@/server/lib/deferred-touch';
import { createApiKey, listApiKeys, revokeApiKey } from '@/server/modules/partners';
import { defineRoute } from '@/server/lib/contract';
import { handle } from './route';

async function json(res: Response) {
  return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id') };
}

// A route defined only for this test, so body and path handling go through the real wrapper.
const echoRoute = defineRoute({
  method: 'POST',
  path: '/v1/test/echo/{thingId}',
  operationId: 'testEcho',
  tag: 'Test',
  summary: 'echo',
  auth: 'partner',
  params: z.object({ thingId: z.string().regex(/^t_/, 'must start with t_') }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(10).optional() }),
  body: z.object({
    title: z.string().min(1),
    shows: z.array(z.object({ showId: z.string(), status: z.enum(['LIVE', 'CANCELLED']).optional() })).min(1),
  }),
  maxBodyBytes: 2048,
  response: z.object({ partnerId: z.string(), thingId: z.string(), count: z.number(), limit: z.number().optional() }),
});
const echo = handle(echoRoute, async ({ partner, params, body, query }) => ({
  partnerId: partner.partnerId,
  thingId: params.thingId,
  count: body.shows.length,
  limit: query.limit,
}));

describe('partner API key authentication', () => {
  it('answers 401 in the envelope without a key', async () => {
    const res = await json(await me(apiRequest('/v1/me')));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      status: 401,
      data: null,
      errors: { message: expect.stringContaining('Missing API key'), code: 'UNAUTHORIZED' },
    });
  });

  it('answers 401 for an unknown key', async () => {
    const res = await json(await me(apiRequest('/v1/me', { key: 'sk_live_thisKeyDoesNotExist0000000000000' })));
    expect(res.status).toBe(401);
    expect(res.body.errors.message).toBe('Invalid or revoked API key');
    expect(res.body.data).toBeNull();
  });

  it('accepts the bare key and the Bearer form, and reports the calling partner', async () => {
    const a = await makePartner('Auth');
    for (const key of [a.apiKey, `Bearer ${a.apiKey}`, `bearer   ${a.apiKey}`]) {
      const res = await json(await me(apiRequest('/v1/me', { key })));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 200,
        data: {
          partnerId: a.partner.id,
          name: a.partner.name,
          keyPrefix: a.apiKey.slice(0, 14),
          keyKind: 'partner',
          mode: 'live',
          resaleEntryUrl: expect.stringMatching(new RegExp(`^https?://[^/]+/resale/${a.partner.id}$`)),
        },
        errors: null,
      });
    }
  });

  it('refuses a revoked key while another active key of the same partner keeps working (rotation)', async () => {
    const a = await makePartner('Rotate');
    const second = await createApiKey({ partnerId: a.partner.id, kind: 'partner', label: 'next' }, getDb());
    const [initial] = (await listApiKeys(a.partner.id, getDb())).filter(
      (k) => k.kind === 'partner' && k.id !== second.key.id,
    );
    await revokeApiKey(a.partner.id, initial.id, getDb());
    expect((await me(apiRequest('/v1/me', { key: a.apiKey }))).status).toBe(401);
    expect((await me(apiRequest('/v1/me', { key: second.secret }))).status).toBe(200);
  });

  it('records when a key was last used', async () => {
    const a = await makePartner('LastUsed');
    expect((await listApiKeys(a.partner.id, getDb())).every((k) => k.lastUsedAt === null)).toBe(true);
    await me(apiRequest('/v1/me', { key: a.apiKey }));
    // The call itself writes nothing (a GET never does); the noted use is written by the flush.
    expect((await listApiKeys(a.partner.id, getDb())).every((k) => k.lastUsedAt === null)).toBe(true);
    await flushTouches();
    const used = (await listApiKeys(a.partner.id, getDb())).find((k) => k.kind === 'partner');
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('answers 403 for a channels key on the partner API and a partner key on the Channels API', async () => {
    const a = await makePartner('Kinds');
    const wrong1 = await json(await me(apiRequest('/v1/me', { key: a.channelsApiKey })));
    expect(wrong1.status).toBe(403);
    expect(wrong1.body.errors.code).toBe('FORBIDDEN');
    const wrong2 = await json(await channelsMe(apiRequest('/v1/channels/me', { key: a.apiKey })));
    expect(wrong2.status).toBe(403);
    const right = await json(await channelsMe(apiRequest('/v1/channels/me', { key: a.channelsApiKey })));
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ partnerId: a.partner.id, keyKind: 'channels' });
  });
});

describe('tenant isolation', () => {
  it('gives each partner only its own identity and keys', async () => {
    const a = await makePartner('Tenant A');
    const b = await makePartner('Tenant B');
    const asA = await json(await me(apiRequest('/v1/me', { key: a.apiKey })));
    const asB = await json(await me(apiRequest('/v1/me', { key: b.apiKey })));
    expect(asA.body.data.partnerId).toBe(a.partner.id);
    expect(asB.body.data.partnerId).toBe(b.partner.id);
    expect(JSON.stringify(asB.body)).not.toContain(a.partner.id);

    // B cannot revoke A's key, and learns only "not found".
    const [aKey] = await listApiKeys(a.partner.id, getDb());
    await expect(revokeApiKey(b.partner.id, aKey.id, getDb())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listApiKeys(a.partner.id, getDb())).every((k) => k.revokedAt === null)).toBe(true);
    expect((await listApiKeys(b.partner.id, getDb())).map((k) => k.partnerId)).toEqual([b.partner.id, b.partner.id]);
  });
});

describe('request parsing and the envelope', () => {
  it('names every bad field by its path', async () => {
    const a = await makePartner('Validation');
    const res = await json(
      await echo(
        apiRequest('/v1/test/echo/t_1?limit=50', { key: a.apiKey, body: { shows: [{ showId: 7, status: 'OPEN' }] } }),
        routeParams({ thingId: 't_1' }),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors.code).toBe('VALIDATION_FAILED');
    // Path and query are parsed first; the query problem is reported.
    expect(res.body.errors.details).toEqual([{ path: 'limit', message: expect.any(String), in: 'query' }]);

    const bodyRes = await json(
      await echo(
        apiRequest('/v1/test/echo/t_1', { key: a.apiKey, body: { shows: [{ showId: 7, status: 'OPEN' }] } }),
        routeParams({ thingId: 't_1' }),
      ),
    );
    const paths = bodyRes.body.errors.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['shows[0].showId', 'shows[0].status', 'title']);
    expect(bodyRes.body.errors.details.find((d: { path: string }) => d.path === 'title').message).toBe('is required');
    expect(bodyRes.body.errors.message).toBe('Invalid request body: title is required (and 2 more problems)');
  });

  it('validates path parameters', async () => {
    const a = await makePartner('PathParam');
    const res = await json(
      await echo(
        apiRequest('/v1/test/echo/x', { key: a.apiKey, body: { title: 't', shows: [{ showId: 's' }] } }),
        routeParams({ thingId: 'x' }),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors.details).toEqual([{ path: 'thingId', message: 'must start with t_', in: 'path' }]);
  });

  it('accepts a valid call and wraps the result', async () => {
    const a = await makePartner('Happy');
    const res = await json(
      await echo(
        apiRequest('/v1/test/echo/t_9?limit=3', {
          key: a.apiKey,
          body: { title: 'x', shows: [{ showId: 's1' }, { showId: 's2' }] },
        }),
        routeParams({ thingId: 't_9' }),
      ),
    );
    expect(res).toMatchObject({
      status: 200,
      body: { status: 200, data: { partnerId: a.partner.id, thingId: 't_9', count: 2, limit: 3 }, errors: null },
    });
  });

  it('answers malformed JSON with 400, a non-JSON content type with 415, an empty body with 400', async () => {
    const a = await makePartner('Malformed');
    const bad = await json(
      await echo(
        apiRequest('/v1/test/echo/t_1', {
          method: 'POST',
          key: a.apiKey,
          rawBody: '{"title": "x",',
          headers: { 'content-type': 'application/json' },
        }),
        routeParams({ thingId: 't_1' }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.message).toMatch(/^Malformed JSON/);
    const form = await json(
      await echo(
        apiRequest('/v1/test/echo/t_1', {
          method: 'POST',
          key: a.apiKey,
          rawBody: 'title=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        routeParams({ thingId: 't_1' }),
      ),
    );
    expect(form.status).toBe(415);
    expect(form.body.errors.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const empty = await json(
      await echo(apiRequest('/v1/test/echo/t_1', { method: 'POST', key: a.apiKey }), routeParams({ thingId: 't_1' })),
    );
    expect(empty.status).toBe(400);
    expect(empty.body.errors.message).toBe('Request body is required');
  });

  it('answers 413 for a body over the limit, whether or not Content-Length tells', async () => {
    const a = await makePartner('Large');
    const big = JSON.stringify({ title: 'x'.repeat(5000), shows: [{ showId: 's' }] });
    const withLength = await echo(
      apiRequest('/v1/test/echo/t_1', {
        method: 'POST',
        key: a.apiKey,
        rawBody: big,
        headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
      }),
      routeParams({ thingId: 't_1' }),
    );
    expect(withLength.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = await echo(
      new Request('http://encore.test/v1/test/echo/t_1', {
        method: 'POST',
        body: stream,
        headers: { authorization: a.apiKey, 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
      routeParams({ thingId: 't_1' }),
    );
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).errors.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('puts a request id on every response and keeps a sane caller-supplied one', async () => {
    const generated = await me(apiRequest('/v1/me'));
    expect(generated.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const given = await me(apiRequest('/v1/me', { headers: { 'x-request-id': 'partner-trace-42' } }));
    expect(given.headers.get('x-request-id')).toBe('partner-trace-42');
    const hostile = await me(apiRequest('/v1/me', { headers: { 'x-request-id': 'bad id with spaces' } }));
    expect(hostile.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers unknown /v1 paths with a 404 envelope for any method', async () => {
    for (const fn of [unknownGet, unknownPost]) {
      const res = await json(await fn(apiRequest('/v1/nothing/here', { method: fn === unknownGet ? 'GET' : 'POST' })));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, data: null, errors: { code: 'NOT_FOUND' } });
      expect(res.requestId).toBeTruthy();
    }
  });
});
