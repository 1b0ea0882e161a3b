import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { GET as openapiJson } from '@/app/v1/openapi.json/route';
import { webhookMessage } from '@/server/modules/webhooks';
import { apiRequest } from '@/server/testing/fixtures';
import { buildOpenApiDocument } from './openapi';
import { allRoutes } from './registry';

type Json = Record<string, Record<string, unknown>>;
type Operation = {
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
};

const APP_V1 = path.join(process.cwd(), 'app', 'v1');

/** Every `METHOD /v1/path` that a route file under app/v1 exports (the catch-all 404 excluded). */
function routesOnDisk(): string[] {
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith('[...')) continue; // the unknown-path catch-all
        const seg = entry.name.replace(/^\[(.+)\]$/, '{$1}');
        walk(path.join(dir, entry.name), [...segments, seg]);
      } else if (entry.name === 'route.ts') {
        const source = fs.readFileSync(path.join(dir, entry.name), 'utf8');
        const methods = [
          ...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g),
        ].map((m) => m[1]);
        for (const m of methods) found.push(`${m} /v1/${segments.join('/')}`.replace(/\/$/, ''));
      }
    }
  };
  walk(APP_V1, []);
  return found.sort();
}

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(allRoutes);

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every webhook message Encore sends, its body and its signature headers', () => {
    type Post = {
      parameters: { $ref: string }[];
      requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
    };
    const webhooks = doc.webhooks as Record<string, { post: Post }>;
    const declared = webhookMessage.options.map((o) => o.shape.action.value);
    expect(Object.keys(webhooks).sort()).toEqual([...declared].sort());
    expect(declared).toEqual(expect.arrayContaining(['ticket.updated', 'ticketShield.updated', 'test.ping']));
    const parameters = doc.components.parameters as Record<string, { name: string; in: string; required: boolean }>;
    for (const option of webhookMessage.options) {
      const action = option.shape.action.value;
      const { post } = webhooks[action];
      const headers = post.parameters.map((p) => parameters[p.$ref.replace('#/components/parameters/', '')]);
      expect(headers.map((h) => [h.name, h.in, h.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      // The body: the message's schema, its action and family fixed, its data described field by field.
      const ref = post.requestBody.content['application/json'].schema.$ref;
      const schema = (doc.components.schemas as Record<string, Json[string]>)[ref.split('/').at(-1)!] as {
        properties: Record<string, { const?: string }>;
        required: string[];
      };
      expect(schema.properties.action.const, action).toBe(action);
      expect(schema.properties.family.const, action).toBe(option.shape.family.value);
      expect(schema.required).toEqual(['family', 'action', 'data']);
    }
    const updated = (doc.components.schemas as Record<string, { properties: { data: Json[string] } }>)
      .TicketUpdatedWebhook.properties.data;
    expect(updated).toMatchObject({ required: ['id', 'newOwnerEmail', 'oldOwnerEmail'] });
  });

  it('lists exactly the routes that exist under app/v1', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(routesOnDisk().length).toBeGreaterThan(0);
    expect(documented).toEqual(routesOnDisk());
  });

  it('has unique operation ids and documents the envelope and auth', () => {
    const ids = allRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const me = doc.paths['/v1/me'].get as { security: unknown; responses: Record<string, unknown> };
    expect(me.security).toEqual([{ PartnerKey: [] }]);
    expect(Object.keys(me.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
  });

  it('documents Idempotency-Key on every POST, PUT and DELETE with a key, and on nothing else', () => {
    let mutating = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops) as [string, Operation][]) {
        const header = op.parameters.find((x) => x.in === 'header' && x.name === 'Idempotency-Key');
        const expected = ['post', 'put', 'delete'].includes(method) && op.security.length > 0;
        expect(Boolean(header), `${method.toUpperCase()} ${p}`).toBe(expected);
        if (!expected) continue;
        mutating += 1;
        expect(header).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
        expect(op.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
      }
    }
    // Events, tickets, marketplace, access layer, market data and the Channels API all mutate.
    expect(mutating).toBeGreaterThanOrEqual(20);
  });

  it('declares X-Request-Id on every answer, 400 and 500 on every operation, Retry-After on a 429', () => {
    const components = doc.components as { responses: Record<string, { headers: Record<string, unknown> }> };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops) as [string, Operation][]) {
        const what = `${method.toUpperCase()} ${p}`;
        expect(op.responses['200'].headers, what).toHaveProperty('X-Request-Id');
        expect(Object.keys(op.responses), what).toEqual(expect.arrayContaining(['400', '500']));
      }
    }
    for (const [name, response] of Object.entries(components.responses)) {
      expect(response.headers, name).toHaveProperty('X-Request-Id');
    }
    expect(components.responses.Error429.headers).toHaveProperty('Retry-After');
    expect(components.responses.Error405.headers).toHaveProperty('Allow');
  });

  it('says what refinements enforce (the Prism test, e2e/openapi-conformance.spec.ts, checks it against the API)', () => {
    const schemas = doc.components.schemas as Record<string, Record<string, unknown> & { properties: Json }>;
    expect(schemas.RuleInput.properties.ruleType).toMatchObject({ enum: expect.arrayContaining(['COMBINATION']) });
    expect(schemas.SellAccessLayerRequest.not).toEqual({ required: ['tickets', 'orders'] });
    expect(schemas.ChannelListingsBulk.properties.listings).toMatchObject({
      items: { $ref: '#/components/schemas/ChannelListingItem' },
    });
    const details = doc.paths['/v1/marketdata/events/{externalReferenceId}/inventory/details'].put as {
      requestBody: { content: { 'application/json': { schema: { oneOf: unknown[] } } } };
    };
    expect(details.requestBody.content['application/json'].schema.oneOf).toHaveLength(2);
  });

  it('is served without a key at /v1/openapi.json', async () => {
    const res = await openapiJson(apiRequest('/v1/openapi.json'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.openapi).toBe('3.1.0');
    expect(body.paths['/v1/me']).toBeDefined();
  });
});
