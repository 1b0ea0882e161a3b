import { beforeAll, describe, expect, it } from 'vitest';
import { makePartner, pushEvent } from '@/server/testing/fixtures';
import { syncTickets } from '@/server/testing/ticket-api';
import { v1HandlerFile } from '@/server/testing/v1-routes';
import { buildOpenApiDocument } from './openapi';
import { allRoutes } from './registry';

/**
 * Every /v1 operation of the OpenAPI document, called through its real route handler with hostile
 * input: bad path and query values, bodies of the wrong type or shape, broken JSON, deep nesting, huge
 * arrays, wrong content types and wrong keys. Nothing may answer 5xx, and every answer is the envelope.
 * Seeded, so a failure replays; bounded to a few seconds.
 */

type Json = Record<string, unknown>;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const doc = buildOpenApiDocument(allRoutes) as unknown as {
  paths: Record<string, Record<string, { parameters?: Json[]; requestBody?: Json; security?: unknown[] }>>;
  components: { schemas: Record<string, Json> };
};

/** mulberry32: small, seeded, good enough to pick cases. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  'x'.repeat(10_000),
  '../../etc/passwd',
  '..%2F..%2F',
  '🎫🎟️👩‍👩‍👧',
  '\uD800',
  '\uDFFF tail',
  '',
  ' ',
  "'; drop table tickets; --",
  '%00',
  '<script>alert(1)</script>',
  '1e309',
  '-1',
  'null',
  'ｔｉｃｋｅｔ',
  'a'.repeat(201),
];
const NASTY_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -0,
  2 ** 53 + 1,
  [],
  {},
  [null],
  { '\u0000': 1 },
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
];

/** JSON text nested `levels` deep (built as text: JSON.stringify itself would overflow the stack). */
function deepNest(levels: number): string {
  return '[{"a":'.repeat(levels / 2) + '1' + '}]'.repeat(levels / 2);
}

/** encodeURIComponent refuses lone surrogates; send their raw (invalid) UTF-8 bytes instead. */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

function resolve(node: Json): Json {
  const ref = node.$ref;
  if (typeof ref === 'string') return doc.components.schemas[ref.split('/').pop()!] ?? {};
  return node;
}

/** A value shaped roughly like the schema, with hostile leaves, or of the wrong type altogether. */
function generate(schemaIn: Json, rand: () => number, depth = 0): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  if (rand() < 0.15 || depth > 6) return pick([...NASTY_VALUES, ...NASTY_STRINGS]);
  const schema = resolve(schemaIn);
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants?.length) return generate(pick(variants), rand, depth + 1);
  const type = Array.isArray(schema.type) ? pick(schema.type as string[]) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Record<string, Json>;
      for (const [k, v] of Object.entries(props)) if (rand() < 0.85) out[k] = generate(v, rand, depth + 1);
      if (rand() < 0.2) out[pick(['unknownField', 'a\u0000', '$where', '__proto__'])] = pick(NASTY_STRINGS);
      return out;
    }
    case 'array': {
      const n = Math.floor(rand() * 3) + (rand() < 0.1 ? 0 : 1);
      return Array.from({ length: n }, () => generate((schema.items ?? {}) as Json, rand, depth + 1));
    }
    case 'string':
      return schema.enum && rand() < 0.5 ? pick(schema.enum as string[]) : pick(NASTY_STRINGS);
    case 'number':
    case 'integer':
      return pick([0, -1, 1.25, 1e308, 2 ** 53 + 1, '12.345', '1e3', 'NaN']);
    case 'boolean':
      return pick([true, false, 'true', 0]);
    default:
      return pick([...NASTY_VALUES, ...NASTY_STRINGS]);
  }
}

/** Request bodies and path values that pass validation (for the partner made in beforeAll), to mutate. */
function validInput(ref: string): Record<string, { body?: unknown; path?: Record<string, string>; query?: string }> {
  const show = {
    title: 'Show',
    date: '2027-06-01T20:00:00Z',
    showId: '1',
    images: [{ url: 'https://img.example/1.png' }],
    configuration: {},
    ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'General', currency: 'EUR', price: '40.00' }],
    priceTypes: [{ priceTypeId: 'ADULT', title: 'Adult' }],
  };
  const event = {
    title: 'Fuzz event',
    description: '<p>Rich</p>',
    externalReferenceId: ref,
    location: { name: 'Hall', city: 'Lima' },
    configuration: {},
    shows: [show],
  };
  const ticket = {
    externalReferenceEventId: ref,
    showId: '1',
    buyer: { email: 'fan@example.com', fullName: 'Fan' },
    ticketId: `${ref}-T1`,
    ticketAccess: { type: 'URL', locator: 'https://qr.example/1.png', status: 'LOCKED' },
    ticketOptionId: 'GA',
    props: { seat: '12', row: 'B' },
  };
  return {
    'POST /v1/events': { body: { ...event, externalReferenceId: `${ref}-new` } },
    'PUT /v1/events': {
      body: { externalReferenceId: ref, title: 'Renamed', shows: [{ showId: '1', title: 'Again' }] },
    },
    'POST /v1/events/{externalReferenceId}/cancellation': {
      path: { externalReferenceId: `${ref}-none` },
      query: 'showId=9',
    },
    'POST /v1/events/rules': {
      body: [
        {
          externalReferenceEventId: ref,
          showId: '1',
          ticketOptionId: 'GA',
          priceTypeId: 'ADULT',
          price: 30,
          ruleType: 'COMBINATION',
        },
        { externalReferenceEventId: ref, ruleType: 'PRICE_LIMITS', rules: { maxPercentOfFace: 120 } },
      ],
    },
    'POST /v1/tickets': { body: [ticket, { ...ticket, ticketId: `${ref}-T2` }] },
    'POST /v1/sync/tickets': { body: [ticket] },
    'PUT /v1/tickets/{ticketId}': {
      path: { ticketId: `${ref}-T1` },
      body: { buyer: 'other@example.com', props: { seat: '13' } },
    },
    'DELETE /v1/tickets/{ticketId}': { path: { ticketId: `${ref}-missing` } },
    'POST /v1/tickets/{ticketId}/eventAdmission': { path: { ticketId: `${ref}-missing` } },
    'POST /v1/tickets/batch/eventAdmission': { body: [{ ticketId: `${ref}-T1`, entryDate: '2027-06-01T20:05:00Z' }] },
    'GET /v1/tickets/{ticketId}/url': { path: { ticketId: `${ref}-T1` } },
    'GET /v1/tickets/batches/{batchId}': { path: { batchId: 'tbt_missing' } },
    'GET /v1/events/tickets/salePublicUrl': { query: `ticketId=${ref}-T1&lang=en` },
  };
}

/** The value with one leaf (string, number, boolean or null) replaced by `by`. */
function mutateLeaf(value: unknown, by: unknown, rand: () => number): unknown {
  const leaves: { holder: Record<string | number, unknown>; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (child && typeof child === 'object') walk(child);
        else leaves.push({ holder: v as Record<string, unknown>, key: Array.isArray(v) ? Number(k) : k });
      }
    }
  };
  const copy = structuredClone(value);
  walk(copy);
  if (!leaves.length) return by;
  const { holder, key } = leaves[Math.floor(rand() * leaves.length)];
  holder[key] = by;
  return copy;
}

interface Case {
  label: string;
  path: Record<string, string>;
  query: string;
  body?: string;
  contentType?: string | null;
  key: 'partner' | 'channels' | 'none' | 'bogus';
}

function casesFor(
  method: string,
  pathTemplate: string,
  op: { parameters?: Json[]; requestBody?: Json },
  seed: number,
  valid: ReturnType<typeof validInput>,
): Case[] {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const pathNames = [...pathTemplate.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => String(p.name));
  const bodySchema = (op.requestBody as { content?: { 'application/json'?: { schema?: Json } } } | undefined)
    ?.content?.['application/json']?.schema;
  const anyPath = () => Object.fromEntries(pathNames.map((n) => [n, pick(NASTY_STRINGS)]));
  const anyQuery = () => {
    const q = new URLSearchParams();
    for (const n of queryNames) if (rand() < 0.8) q.append(n, pick(NASTY_STRINGS));
    if (rand() < 0.3) for (const n of queryNames) q.append(n, 'repeated');
    if (rand() < 0.2) q.append('unknown', '\u0000');
    return q.toString();
  };
  const json = (v: unknown) => JSON.stringify(v);
  const cases: Case[] = [];
  const base = (label: string, extra: Partial<Case> = {}): Case => ({
    label,
    path: anyPath(),
    query: anyQuery(),
    key: 'partner',
    ...(bodySchema ? { body: json(generate(bodySchema, rand)) } : {}),
    ...extra,
  });
  for (let i = 0; i < 14; i++) cases.push(base(`random #${i}`));
  cases.push(
    base('no key', { key: 'none' }),
    base('bogus key', { key: 'bogus' }),
    base('channels key', { key: 'channels' }),
  );
  // Valid input with one hostile value: these get past the schemas and reach the database.
  const good = valid[`${method} ${pathTemplate}`];
  if (good) {
    for (let i = 0; i < 24; i++) {
      const nasty = rand() < 0.7 ? pick(NASTY_STRINGS) : pick(NASTY_VALUES);
      const mutatePath = good.path && (!good.body || rand() < 0.3);
      const pathValues = { ...(good.path ?? {}) };
      if (mutatePath) {
        const names = Object.keys(pathValues);
        pathValues[pick(names)] = String(nasty);
      }
      cases.push({
        label: `valid input with ${JSON.stringify(nasty)?.slice(0, 40)} in the ${mutatePath ? 'path' : 'body'} #${i}`,
        path: pathValues,
        query: good.query ?? '',
        key: 'partner',
        ...(good.body !== undefined ? { body: json(mutatePath ? good.body : mutateLeaf(good.body, nasty, rand)) } : {}),
      });
    }
  }
  if (bodySchema) {
    for (const v of [null, 1, 'text', true, [], {}, [[[]]], { a: 1 }])
      cases.push(base(`body ${JSON.stringify(v)}`, { body: json(v) }));
    cases.push(
      base('broken JSON', { body: '{"a": [1, 2' }),
      base('empty body', { body: '' }),
      base('NUL in raw JSON', { body: '{"title":"a\\u0000b"}' }),
      base('lone surrogate escape', { body: '["\\ud800"]' }),
      base('deep nesting', { body: deepNest(10_000) }),
      base('20,000-item array', { body: json(Array.from({ length: 20_000 }, (_, k) => ({ k, v: 'x' }))) }),
      base('text/plain', { contentType: 'text/plain' }),
      base('xml', { contentType: 'application/xml', body: '<a/>' }),
      base('form', { contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=%00' }),
      base('no content type', { contentType: null }),
    );
  }
  return cases;
}

describe('fuzzing every /v1 operation', () => {
  let keys: Record<Case['key'], string | null>;
  let valid: ReturnType<typeof validInput>;

  beforeAll(async () => {
    const p = await makePartner('Fuzz');
    keys = {
      partner: p.apiKey,
      channels: p.channelsApiKey,
      none: null,
      bogus: 'sk_live_notARealKeyAtAll0000000000000',
    };
    const ref = `FZ-${Date.now()}`;
    valid = validInput(ref);
    await pushEvent(p.apiKey, ref, [(valid['POST /v1/events'].body as { shows: unknown[] }).shows[0]]);
    const sync = await syncTickets(p.apiKey, (valid['POST /v1/tickets'].body as unknown[]).slice(0, 2));
    expect(sync.body.data).toMatchObject({ imported: 2 });
  });

  const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
  );

  it('covers every operation of the document', () => {
    expect(operations.length).toBe(allRoutes.length);
  });

  it.each(operations.map((o, i) => [`${o.method} ${o.path}`, o, i] as const))(
    '%s never answers 5xx and always answers the envelope',
    async (_name, { method, path: template, op }, index) => {
      const mod = (await import(v1HandlerFile(template))) as Record<string, Handler>;
      const handler = mod[method];
      expect(handler, `${method} ${template} has a handler`).toBeTypeOf('function');
      for (const c of casesFor(method, template, op, 1000 + index, valid)) {
        const headers: Record<string, string> = {};
        const key = keys[c.key];
        if (key) headers.authorization = key;
        if (c.body !== undefined && c.contentType !== null)
          headers['content-type'] = c.contentType ?? 'application/json';
        const url = `http://encore.test${template.replace(/\{(\w+)\}/g, (_m, n: string) => encodeSegment(c.path[n]))}${c.query ? `?${c.query}` : ''}`;
        const hasBody = c.body !== undefined && method !== 'GET';
        const res = await handler(new Request(url, { method, headers, body: hasBody ? c.body : undefined }), {
          params: Promise.resolve(c.path),
        });
        const what = `${method} ${template} [${c.label}] → ${res.status}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers.get('x-request-id'), what).toBeTruthy();
        const text = await res.text();
        if (res.status === 200 && template === '/v1/openapi.json') continue;
        const body = JSON.parse(text) as { status: number; data: unknown; errors: unknown };
        expect(body.status, what).toBe(res.status);
        if (res.status >= 400) {
          expect(body.data, what).toBeNull();
          expect(body.errors, what).toMatchObject({ message: expect.any(String), code: expect.any(String) });
        } else {
          expect(body.errors === null || Array.isArray(body.errors), what).toBe(true);
        }
      }
    },
    60_000,
  );
});
