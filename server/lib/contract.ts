import type { z } from 'zod';
import type { RateLimit } from './rate-limit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuthKind = 'partner' | 'channels' | 'none';

/**
 * One partner-API operation: the single description the route wrapper enforces and the OpenAPI
 * document is generated from. `path` uses OpenAPI templating (`/v1/tickets/{ticketId}`).
 */
export interface RouteContract<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  /**
   * Also open to a partner's publishable key (`pk_live_…` / `pk_test_…`, what the browser widget sends): the
   * buy access layer's GET and the fan's resale entry (`<encore-sell>`). Such a call is answered through CORS to the partner's widget origins and is
   * limited per key, origin and client address (server/http/publishable.ts); every other operation answers such a key 403.
   */
  publishableKey?: boolean;
  query?: Q;
  body?: B;
  params?: P;
  response: R;
  /** Access-layer responses answer `errors: []` on success, per the spec. */
  emptyErrorsArray?: boolean;
  rateLimit?: RateLimit;
  maxBodyBytes?: number;
  /** Error statuses this operation documents besides 400/401/403/429. */
  errorStatuses?: number[];
  /** Not an envelope: the response is the raw value (OpenAPI document itself). */
  raw?: boolean;
  /**
   * One worked call: path/query values, the request body (when the operation has one) and the success
   * answer's `data`. Emitted as OpenAPI `examples`, rendered with a curl line at /docs, and checked by
   * server/http/examples.test.ts against the schemas above and against the real handlers.
   */
  examples?: RouteExample;
}

export interface RouteExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The envelope's `data` (or the raw value for `raw` routes). */
  response: unknown;
  /** What to change before pasting, e.g. an id only Encore knows. */
  note?: string;
}

export function defineRoute<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  contract: RouteContract<Q, B, P, R>,
): RouteContract<Q, B, P, R> {
  return contract;
}
