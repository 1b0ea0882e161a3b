/**
 * What a call may send and what it answers, read from the generated `paths` (openapi-typescript's output
 * for Encore's OpenAPI document): a path the API does not have, a missing path parameter or a wrong body
 * field is a compile error in the partner's code.
 */
import type { components, paths } from './generated/encore-api.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The API's paths that answer `method` (a literal such as `'/v1/tickets/{ticketId}'`). */
export type PathsFor<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<Lowercase<M>, object> ? P : never;
}[keyof paths];

type Operation<M extends HttpMethod, P> = P extends keyof paths
  ? Lowercase<M> extends keyof paths[P]
    ? NonNullable<paths[P][Lowercase<M>]>
    : never
  : never;

type ParametersOf<O> = O extends { parameters: infer X } ? X : object;

/** `path`: required when the path has parameters (`{ticketId}`), absent otherwise. */
type PathInit<O> = ParametersOf<O> extends { path: infer X } ? { path: X } : { path?: undefined };

/** `query`: required when one of its parameters is, optional when all are, absent when there are none. */
type QueryInit<O> =
  ParametersOf<O> extends { query: infer X }
    ? { query: X }
    : ParametersOf<O> extends { query?: infer X }
      ? [NonNullable<X>] extends [never]
        ? { query?: undefined }
        : { query?: NonNullable<X> }
      : { query?: undefined };

/** `body`: the operation's JSON request body, when it has one. */
type BodyInit<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: infer R }
    ? [NonNullable<R>] extends [never]
      ? { body?: undefined }
      : NonNullable<R> extends { content: { 'application/json': infer B } }
        ? { body?: B }
        : { body?: undefined }
    : { body?: undefined };

/** What every call may add: its idempotency key, headers, cancellation and its own retry and timeout. */
export interface CallOptions {
  /**
   * On POST, PUT, PATCH and DELETE: the `Idempotency-Key` to send. By default a new UUID per call, the same
   * on every retry of that call. Pass your own to make a call you may repeat later (after a crash) safe;
   * `false` sends none (the call is then retried only on a 429).
   */
  idempotencyKey?: string | false;
  /** More headers for this call. */
  headers?: Record<string, string>;
  /** Cancels the call, its retries and the waits between them. */
  signal?: AbortSignal;
  /** This call's attempts in all, first included (the client's `maxAttempts` otherwise). */
  maxAttempts?: number;
  /** This call's time limit per attempt, in milliseconds (the client's `timeoutMs` otherwise). */
  timeoutMs?: number;
}

export type CallInit<M extends HttpMethod, P> = PathInit<Operation<M, P>> &
  QueryInit<Operation<M, P>> &
  BodyInit<Operation<M, P>> &
  CallOptions;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** The init argument, optional when nothing in it is required. */
export type InitArgs<M extends HttpMethod, P> = [RequiredKeys<CallInit<M, P>>] extends [never]
  ? [init?: CallInit<M, P>]
  : [init: CallInit<M, P>];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessBody<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, SuccessStatus>]> : never;
/** The envelope's `data`; an answer that is no envelope (the OpenAPI document itself) as it is. */
type Unwrapped<B> = B extends { status: number; data: infer D; errors: unknown } ? D : B;

/** What a successful call answers: the envelope's `data`, typed. */
export type ResponseData<M extends HttpMethod, P> = Unwrapped<SuccessBody<Operation<M, P>>>;

/** A call's answer with what came with it. */
export interface Answer<T> {
  /** The envelope's `data`. */
  data: T;
  /** The HTTP status (200). */
  status: number;
  headers: Headers;
  /** `X-Request-Id`: quote it to Encore's support. */
  requestId: string | null;
  /** The `Idempotency-Key` sent (null on GET, or with `idempotencyKey: false`). */
  idempotencyKey: string | null;
  /** True when Encore answered an earlier call's stored answer for this key (`Idempotent-Replayed: true`). */
  replayed: boolean;
  /** Attempts made, 1 when the first one answered. */
  attempts: number;
}

type Envelope = components['schemas'] extends { ErrorEnvelope: infer E } ? E : never;
type EnvelopeErrors = Envelope extends { errors: infer X } ? X : never;

/** The error codes Encore's document lists (a newer server may send others, hence `string` too). */
export type ErrorCode = (EnvelopeErrors extends { code: infer C } ? C : never) | 'UNEXPECTED_RESPONSE';

/** One bad field of a 400: its path in the request (`shows[0].date`), what is wrong, and where. */
export interface ErrorDetail {
  path: string;
  message: string;
  in?: 'body' | 'query' | 'path' | 'header';
}
