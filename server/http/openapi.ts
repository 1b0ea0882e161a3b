import { z } from 'zod';
import { publicBaseUrl } from '@/server/env';
import { STATUS_OF } from '@/server/lib/errors';
import type { RouteContract } from '@/server/lib/contract';
import { documentedAs } from '@/server/lib/json-schema';
import { MAX_JSON_DEPTH } from '@/server/lib/storable';
import { webhookMessages } from '@/server/modules/webhooks';
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
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A schema whose structure is not what a client sends shows the one it names (server/lib/json-schema.ts).
    override: (ctx) => {
      const documented = documentedAs(ctx.zodSchema);
      if (!documented) return;
      const target = ctx.jsonSchema as Json;
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, toSchema(documented, io, components));
    },
  }) as Json;
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
  // The object's own `required` list decides: a query's `.meta({ required })` can say what its refinement demands.
  const object = toSchema(schema, 'input', components) as { properties?: Record<string, Json>; required?: string[] };
  return Object.keys(schema.shape as Record<string, z.ZodType>).map((name) => {
    const { description, ...rest } = object.properties?.[name] ?? {};
    return {
      name,
      in: where,
      required: where === 'path' ? true : (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
      schema: rest,
    };
  });
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: `errors.details` names each bad field by path',
  401: 'Missing, invalid or revoked API key',
  403: 'Wrong kind of key for this operation (a publishable key opens only the widget reads: the buy access layer and the resale entry), a disabled partner, or a page origin the publishable key may not be used from',
  404: 'Unknown resource (or one that belongs to another partner)',
  405: 'Method not allowed on this path: answered to any method a path does not list here; `Allow` names the ones it has',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  415: 'Body is not JSON',
  422: 'The Idempotency-Key was already used with another request',
  429: 'Rate limit exceeded; see the Retry-After header',
  500: 'A failure on Encore’s side: quote the request id (`X-Request-Id`) to support',
  502: 'A server Encore depends on for this call (the payment provider) failed',
  503: 'Encore is unavailable for a moment (its database is restarting or unreachable): retry after the Retry-After header’s seconds; nothing of the call was applied unless a retry with the same Idempotency-Key says so',
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
  const webhooks = webhooksOf(components);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Encore partner API',
      version: 'v.1.0',
      description:
        'Connects a primary ticketing platform with the Encore resale market. Every response uses the envelope ' +
        '`{ status, data, errors }`: `errors` is null on success (an empty array in access-layer successes); on error ' +
        '`data` is null and `errors` is `{ message, code, details? }`. Every response carries `X-Request-Id`. A path ' +
        'called with a method it does not list answers 405 (`components.responses.Error405`) with `Allow` naming ' +
        'the methods it has. Everywhere (a rule said once, here): no text, key or value may hold a NUL character or ' +
        `an unpaired UTF-16 surrogate, and no body may nest objects and arrays deeper than ${MAX_JSON_DEPTH} (400 naming the field).`,
    },
    servers: [{ url: publicBaseUrl() }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      responses: errorResponses(),
      headers: HEADERS,
      parameters: WEBHOOK_HEADERS,
      schemas: { ...components, ErrorEnvelope: ERROR_ENVELOPE },
    },
  };
}

/**
 * What Encore POSTs to a partner's webhook endpoint (or a channel's webhook URL), one entry per message
 * (server/modules/webhooks/messages.ts), keyed by its action: the body and the signature headers.
 */
function webhooksOf(components: Record<string, unknown>) {
  const webhooks: Record<string, unknown> = {};
  for (const m of webhookMessages()) {
    const camel = m.action.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
    webhooks[m.action] = {
      post: {
        operationId: `${camel}Webhook`,
        summary: m.title,
        description:
          `\`${m.action}\`. Signed per Standard Webhooks: HMAC-SHA256 of \`webhook-id.webhook-timestamp.body\` ` +
          'under your `whsec_…` secret. The same message is delivered until your receiver answers 200, 201, 202 ' +
          'or 204, with the same `webhook-id` each time.',
        tags: ['Webhooks'],
        parameters: Object.keys(WEBHOOK_HEADERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toSchema(m.schema, 'output', components) } },
        },
        responses: {
          '200': { description: 'Received: 200, 201, 202 or 204 ends the delivery; any other answer is retried' },
        },
      },
    };
  }
  return webhooks;
}

/** The Standard Webhooks headers on every webhook Encore sends (`components.parameters`). */
const WEBHOOK_HEADERS = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The message's id (`msg_…`): the same on every delivery attempt; handle each id once",
    schema: { type: 'string', minLength: 1 },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the epoch: refuse one far from now (a replay)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256>`, space-separated when there are several (while a secret is rotated): one match is enough',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
};

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
  // 400: any call's path and query are checked for what cannot be stored (a NUL) even where no schema reads them.
  // 500: a failure on Encore's side, answered in the envelope with the request id to quote.
  // 503: Encore's database unreachable for a moment, with Retry-After (any call may meet it).
  const statuses = new Set<number>([400, 500, 503, ...(r.errorStatuses ?? [])]);
  if (r.auth !== 'none') [401, 403].forEach((s) => statuses.add(s));
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
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/RequestId' },
        ...(idempotent(r) ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}),
        ...(r.rateLimit ? RATE_LIMIT_HEADERS : {}),
      },
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

/**
 * The shared error answers, one per status, each with an example: the envelope with that `status` and the
 * codes that status carries, and the headers it always has.
 */
function errorResponses() {
  const errorResponses: Record<string, unknown> = {};
  for (const s of Object.keys(ERROR_TEXT).map(Number)) {
    errorResponses[`Error${s}`] = {
      description: ERROR_TEXT[s],
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/RequestId' },
        ...(s === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_LIMIT_HEADERS } : {}),
        ...(s === 503 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
        ...(s === 405 ? { Allow: { $ref: '#/components/headers/Allow' } } : {}),
      },
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/ErrorEnvelope' },
              {
                properties: {
                  status: { const: s },
                  errors: { properties: { code: { enum: codesOf(s) } } },
                },
              },
            ],
          },
          example: ERROR_EXAMPLES[s] ?? {
            status: s,
            data: null,
            errors: { message: ERROR_TEXT[s].split(':')[0], code: codesOf(s)[0] },
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

/** Headers of the API's answers, declared once (`components.headers`). */
const HEADERS = {
  RequestId: {
    description:
      'On every answer: the id of this request in Encore’s logs (the caller’s own `X-Request-Id` when it sent a sane one)',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  RetryAfter: {
    description: 'Whole seconds until one more call would be accepted',
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  RateLimitLimit: {
    description: 'Calls allowed in the window (on the 200 and 429 answers of a rate-limited operation)',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  RateLimitRemaining: {
    description: 'Calls left in the window',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  Allow: {
    description: 'The methods the path has, e.g. `GET, POST`',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
  },
  IdempotentReplayed: {
    description: 'Present (`true`) when this is the stored answer of an earlier call with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
};

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
      'The partner’s publishable key (`pk_live_…`, or `pk_test_…` for its test data), for its web pages’ widget: not a secret, it opens only the widget’s reads, the buy access layer’s GET and the fan’s resale entry (every other operation answers it 403), through CORS to the partner’s allowed widget origins, limited per key and origin.',
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

/** The error codes answered with `status` (server/lib/errors.ts). */
function codesOf(status: number): string[] {
  return Object.entries(STATUS_OF)
    .filter(([, s]) => s === status)
    .map(([code]) => code);
}
