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
}

export function defineRoute<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  contract: RouteContract<Q, B, P, R>,
): RouteContract<Q, B, P, R> {
  return contract;
}
