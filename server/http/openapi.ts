import { z } from 'zod';
import { publicBaseUrl } from '@/server/env';
import { STATUS_OF } from '@/server/lib/errors';
import type { RouteContract } from '@/server/lib/contract';
import { IDEMPOTENCY_HEADER, isMutating } from './idempotency';

type Json = Record<string, unknown>;

/** Rewrites `#/$defs/X` references to `#/components/schemas/X`, collecting the definitions. */
function hoist(schema: Json, components: Record<string, unknown>): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === '$defs' && v && typeof v === 'object') {
        for (const [name, def] of Object.entries(v as Json)) components[name] = walk(def);
      } else if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        out.$ref = `#/components/schemas/${v.slice('#/$defs/'.length)}`;
      } else if (k !== '$schema') {
        out[k] = walk(v);
      }
    }
    return out;
  };
  return walk(schema) as Json;
}

function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, unknown>): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  // A schema that is itself registered with an id comes back as a reference to its own $defs entry.
  return hoist(json, components);
}

function parametersOf(
  schema: z.ZodType | undefined,
  where: 'query' | 'path',
  components: Record<string, unknown>,
  example: Record<string, string> | undefined,
) {
  if (!schema || !(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const json = toSchema(field, 'input', components);
    const { description, ...rest } = json;
    return {
      name,
      in: where,
      required: where === 'path' ? true : !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
      schema: rest,
    };
  });
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: `errors.details` names each bad field by path',
  401: 'Missing, invalid or revoked API key',
  403: 'Wrong kind of key for this operation (a publishable key opens only the buy access layer), a disabled partner, or a page origin the publishable key may not be used from',
  404: 'Unknown resource (or one that belongs to another partner)',
  405: 'Method not allowed on this path',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  415: 'Body is not JSON',
  422: 'The Idempotency-Key was already used with another request',
  429: 'Rate limit exceeded; see the Retry-After header',
};

/** Error answers as the API gives them, where the generic one would say less than the real one. */
const ERROR_EXAMPLES: Record<number, unknown> = {
  400: {
    status: 400,
    data: null,
    errors: {
      message: 'Invalid request body: shows[0].date is required',
      code: 'VALIDATION_FAILED',
      details: [{ path: 'shows[0].date', message: 'is required', in: 'body' }],
    },
  },
  404: { status: 404, data: null, errors: { message: 'Event not found', code: 'NOT_FOUND' } },
  422: {
    status: 422,
    data: null,
    errors: {
      message:
        'Idempotency-Key was already used with another request (POST /v1/events with other parameters); use a new key for a new request',
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: [{ path: 'Idempotency-Key', message: 'was used with another request', in: 'header' }],
    },
  },
  409: {
    status: 409,
    data: null,
    errors: { message: 'Ticket already admitted at 2027-05-02T00:03:00.000Z', code: 'CONFLICT' },
  },
};

export function buildOpenApiDocument(routes: RouteContract[]) {
  const components: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    paths[r.path][r.method.toLowerCase()] = operationOf(r, components);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Encore partner API',
      version: 'v.1.0',
      description:
        'Connects a primary ticketing platform with the Encore resale market. Every response uses the envelope ' +
        '`{ status, data, errors }`: `errors` is null on success (an empty array in access-layer successes); on error ' +
        '`data` is null and `errors` is `{ message, code, details? }`. Every response carries `X-Request-Id`.',
    },
    servers: [{ url: publicBaseUrl() }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      responses: errorResponses(),
      schemas: { ...components, ErrorEnvelope: ERROR_ENVELOPE },
    },
  };
}

/** One route's operation; the zod schemas it names are added to `components` as they are met. */
function operationOf(r: RouteContract, components: Record<string, unknown>) {
  const ex = r.examples;
  const responses = responsesOf(r, components);
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: [r.tag],
    security: securityOf(r),
    parameters: [
      ...parametersOf(r.params, 'path', components, ex?.params),
      ...parametersOf(r.query, 'query', components, ex?.query),
      ...(idempotent(r) ? [IDEMPOTENCY_PARAMETER] : []),
    ],
    ...(ex ? { 'x-curl': curlOf(r) } : {}),
    ...(ex?.note ? { 'x-example-note': ex.note } : {}),
    ...(r.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: toSchema(r.body, 'input', components),
                ...(ex?.body !== undefined ? { examples: { default: { summary: 'Example', value: ex.body } } } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    ...(r.rateLimit ? { 'x-rate-limit': { limit: r.rateLimit.limit, windowSeconds: r.rateLimit.windowSeconds } } : {}),
  } as Record<string, unknown>;
}

/** A route's success answer (in the envelope unless raw) and the error statuses it can answer. */
function responsesOf(r: RouteContract, components: Record<string, unknown>) {
  const statuses = new Set<number>(r.errorStatuses ?? []);
  if (r.auth !== 'none') [401, 403].forEach((s) => statuses.add(s));
  if (r.query || r.body || r.params) statuses.add(400);
  if (r.body) [413, 415].forEach((s) => statuses.add(s));
  if (r.rateLimit) statuses.add(429);
  if (idempotent(r)) [400, 409, 422].forEach((s) => statuses.add(s));

  const dataSchema = toSchema(r.response, 'output', components);
  const success = r.raw
    ? dataSchema
    : {
        type: 'object',
        required: ['status', 'data', 'errors'],
        properties: {
          status: { type: 'integer', const: 200 },
          data: dataSchema,
          errors: r.emptyErrorsArray ? { type: 'array', maxItems: 0 } : { type: 'null' },
        },
      };

  const ex = r.examples;
  const successExample = ex
    ? r.raw
      ? ex.response
      : { status: 200, data: ex.response, errors: r.emptyErrorsArray ? [] : null }
    : undefined;
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Success',
      ...(idempotent(r) ? { headers: { 'Idempotent-Replayed': REPLAYED_HEADER } } : {}),
      content: {
        'application/json': {
          schema: success,
          ...(ex ? { examples: { default: { summary: 'Success', value: successExample } } } : {}),
        },
      },
    },
  };
  for (const s of [...statuses].sort()) {
    responses[String(s)] = { $ref: `#/components/responses/Error${s}` };
  }
  return responses;
}

/** The shared error answers, one per status, each with an example. */
function errorResponses() {
  const errorResponses: Record<string, unknown> = {};
  for (const s of Object.keys(ERROR_TEXT).map(Number)) {
    errorResponses[`Error${s}`] = {
      description: ERROR_TEXT[s],
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          example: ERROR_EXAMPLES[s] ?? {
            status: s,
            data: null,
            errors: { message: ERROR_TEXT[s].split(':')[0], code: codeOf(s) },
          },
        },
      },
    };
  }
  return errorResponses;
}

/** Which keys open the operation: none, the channels key, or the partner key (and the publishable key where it is taken). */
function securityOf(r: RouteContract) {
  if (r.auth === 'none') return [];
  if (r.auth === 'channels') return [{ ChannelsKey: [] }];
  return r.publishableKey ? [{ PartnerKey: [] }, { PublishableKey: [] }] : [{ PartnerKey: [] }];
}

const SECURITY_SCHEMES = {
  PartnerKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'The partner API key, sent bare (`Authorization: sk_live_…`) or as `Bearer sk_live_…`. A test key (`sk_test_…`) opens the same API on the partner’s test data space (test mode), which live keys never see.',
  },
  ChannelsKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A channels API key (`sk_ch_…`, or `sk_test_ch_…` in test mode); it opens the Channels API only.',
  },
  PublishableKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'The partner’s publishable key (`pk_live_…`, or `pk_test_…` for its test data), for its web pages’ widget: not a secret, it opens only the buy access layer’s GET (every other operation answers it 403), through CORS to the partner’s allowed widget origins, limited per key and origin.',
  },
};

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['status', 'data', 'errors'],
  properties: {
    status: { type: 'integer' },
    data: { type: 'null' },
    errors: {
      type: 'object',
      required: ['message', 'code'],
      properties: {
        message: { type: 'string' },
        code: { type: 'string', enum: Object.keys(STATUS_OF) },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: {
              path: { type: 'string', description: 'e.g. `shows[0].ticketOptions[1].ticketId`' },
              message: { type: 'string' },
              in: { type: 'string', enum: ['body', 'query', 'path', 'header'] },
            },
          },
        },
      },
    },
  },
};

/** The example call as a curl line against the public base URL, with the key as a shell variable. */
function curlOf(r: RouteContract): string {
  const ex = r.examples;
  let path = r.path;
  for (const [k, v] of Object.entries(ex?.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const qs = new URLSearchParams(ex?.query ?? {}).toString();
  const url = `${publicBaseUrl()}${path}${qs ? `?${qs}` : ''}`;
  const parts = [`curl -X ${r.method} '${url}'`];
  if (r.auth !== 'none')
    parts.push(`-H "Authorization: $${r.auth === 'channels' ? 'ENCORE_CHANNELS_KEY' : 'ENCORE_KEY'}"`);
  if (ex?.body !== undefined) {
    parts.push(`-H 'Content-Type: application/json'`);
    // Single-quoted for the shell: a quote inside the JSON is closed, escaped and reopened.
    parts.push(`-d '${JSON.stringify(ex.body).replace(/'/g, `'\\''`)}'`);
  }
  return parts.join(' \\\n  ');
}

/** Every mutating call of a partner or channel takes the header (server/http/idempotency.ts). */
function idempotent(r: RouteContract): boolean {
  return r.auth !== 'none' && isMutating(r.method);
}

const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Optional, up to 255 characters (e.g. a UUID). Sent again within 24 hours with the same request, the first ' +
    'answer (a 200 or a 4xx) is replayed with `Idempotent-Replayed: true` and nothing runs twice; with another ' +
    'request it is a 422. A call meeting one still running with its key waits for it, or answers 409 after 10 s.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  example: '5f0c6a0e-2b7a-4f7e-9a51-3b1d2c9e8f10',
};

const REPLAYED_HEADER = {
  description: 'Present (`true`) when this is the stored answer of an earlier call with the same Idempotency-Key',
  schema: { type: 'string', enum: ['true'] },
};

function codeOf(status: number): string {
  return Object.entries(STATUS_OF).find(([, s]) => s === status)?.[0] ?? 'BAD_REQUEST';
}
