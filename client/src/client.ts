import { EncoreApiError, EncoreConnectionError, envelopeErrorOf } from './errors.js';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry.js';
import type { Answer, CallOptions, HttpMethod, InitArgs, PathsFor, ResponseData } from './types.js';

export interface ClientOptions extends Partial<RetryPolicy> {
  /** Your API key (`sk_live_…`, or `sk_test_…` for test mode), sent as `Authorization`. */
  apiKey: string;
  /** Encore's address, e.g. `https://encore.example` (the paths start with `/v1`). */
  baseUrl: string;
  /** Time limit per attempt in milliseconds, the answer's body included (default 30 000). */
  timeoutMs?: number;
  /** Headers sent on every call. */
  headers?: Record<string, string>;
  /** Called before each wait for a retry: to log it, or to count. */
  onRetry?: (retry: RetryEvent) => void;
  /** The `fetch` to call (default: the global one). */
  fetch?: typeof fetch;
}

/** A retry about to happen: the attempt that failed, why, and how long the client waits first. */
export interface RetryEvent {
  method: HttpMethod;
  path: string;
  attempt: number;
  delayMs: number;
  error: EncoreApiError | EncoreConnectionError;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** What `request` reads from a call's init beyond its options (typed per operation by `CallInit`). */
interface LooseInit extends CallOptions {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * A client for Encore's partner API. Every call is typed from the OpenAPI document the package was built
 * from; answers are the envelope's `data`; errors are thrown as `EncoreApiError`. Mutating calls carry an
 * `Idempotency-Key`, the same on each retry; 429 and 5xx answers and lost connections are retried with
 * backoff, honouring `Retry-After`.
 */
export class EncoreClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  readonly #onRetry: ((retry: RetryEvent) => void) | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new TypeError('EncoreClient: apiKey is required');
    if (!options.baseUrl) throw new TypeError('EncoreClient: baseUrl is required');
    this.#apiKey = options.apiKey;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#retry = {
      maxAttempts: options.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
    };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#headers = options.headers ?? {};
    this.#onRetry = options.onRetry;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** `GET path`: the envelope's `data`. */
  get<P extends PathsFor<'GET'>>(path: P, ...init: InitArgs<'GET', P>): Promise<ResponseData<'GET', P>> {
    return this.request('GET', path, ...init).then((answer) => answer.data);
  }

  /** `POST path` with an `Idempotency-Key`: the envelope's `data`. */
  post<P extends PathsFor<'POST'>>(path: P, ...init: InitArgs<'POST', P>): Promise<ResponseData<'POST', P>> {
    return this.request('POST', path, ...init).then((answer) => answer.data);
  }

  /** `PUT path` with an `Idempotency-Key`: the envelope's `data`. */
  put<P extends PathsFor<'PUT'>>(path: P, ...init: InitArgs<'PUT', P>): Promise<ResponseData<'PUT', P>> {
    return this.request('PUT', path, ...init).then((answer) => answer.data);
  }

  /** `PATCH path` with an `Idempotency-Key`: the envelope's `data`. */
  patch<P extends PathsFor<'PATCH'>>(path: P, ...init: InitArgs<'PATCH', P>): Promise<ResponseData<'PATCH', P>> {
    return this.request('PATCH', path, ...init).then((answer) => answer.data);
  }

  /** `DELETE path` with an `Idempotency-Key`: the envelope's `data`. */
  delete<P extends PathsFor<'DELETE'>>(path: P, ...init: InitArgs<'DELETE', P>): Promise<ResponseData<'DELETE', P>> {
    return this.request('DELETE', path, ...init).then((answer) => answer.data);
  }

  /** Any call, answering the `data` with its status, headers, request id, idempotency key and replay flag. */
  async request<M extends HttpMethod, P extends PathsFor<M>>(
    method: M,
    path: P,
    ...[init]: InitArgs<M, P>
  ): Promise<Answer<ResponseData<M, P>>> {
    const call = (init ?? {}) as LooseInit;
    const url = urlOf(this.#baseUrl, path, call.path, call.query);
    const idempotencyKey =
      method === 'GET' || call.idempotencyKey === false ? null : (call.idempotencyKey ?? crypto.randomUUID());
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.#headers,
      ...call.headers,
      authorization: this.#apiKey,
      ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
    };
    const body = call.body !== undefined ? JSON.stringify(call.body) : undefined;
    const retry = { ...this.#retry, maxAttempts: call.maxAttempts ?? this.#retry.maxAttempts };
    // Running it twice cannot do anything twice: a read, or a write Encore answers again from its key.
    const repeatable = method === 'GET' || idempotencyKey !== null;

    for (let attempt = 1; ; attempt++) {
      const last = attempt >= retry.maxAttempts;
      let outcome: { response: Response; text: string };
      try {
        outcome = await this.#attempt(url, { method, headers, body }, call.timeoutMs ?? this.#timeoutMs, call.signal);
      } catch (cause) {
        if (call.signal?.aborted) throw cause;
        const error = new EncoreConnectionError(
          `${method} ${path}: no answer from Encore (${reasonOf(cause)})`,
          attempt,
          cause,
        );
        if (!repeatable || last) throw error;
        await this.#wait({ method, path, attempt, delayMs: backoffDelay(attempt, retry), error }, call.signal);
        continue;
      }

      const { response, text } = outcome;
      const requestId = response.headers.get('x-request-id');
      if (response.ok) {
        return {
          data: dataOf(text, response, requestId, attempt) as ResponseData<M, P>,
          status: response.status,
          headers: response.headers,
          requestId,
          idempotencyKey,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          attempts: attempt,
        };
      }

      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const error = apiErrorOf(response, text, requestId, retryAfterMs, attempt);
      const retryable =
        !last &&
        isRetryableStatus(response.status, repeatable, retryAfterMs !== null) &&
        (retryAfterMs === null || retryAfterMs <= retry.maxRetryAfterMs);
      if (!retryable) throw error;
      const delayMs = retryAfterMs ?? backoffDelay(attempt, retry);
      await this.#wait({ method, path, attempt, delayMs, error }, call.signal);
    }
  }

  /** One attempt, its answer's body read within the same time limit. */
  async #attempt(
    url: URL,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; text: string }> {
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await this.#fetch(url, { ...init, signal: controller.signal });
      return { response, text: await response.text() };
    } catch (err) {
      throw timedOut ? new Error(`timed out after ${timeoutMs} ms`) : err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
  }

  async #wait(retry: RetryEvent, signal: AbortSignal | undefined): Promise<void> {
    this.#onRetry?.(retry);
    await sleep(retry.delayMs, signal);
  }
}

/** The path's template filled (each value URL-encoded) and the query appended (arrays as repeated keys). */
function urlOf(
  baseUrl: string,
  template: string,
  pathParams: Record<string, string | number> | undefined,
  query: Record<string, unknown> | undefined,
): URL {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined || value === '') throw new TypeError(`${template}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${baseUrl}${path}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) url.searchParams.append(name, String(item));
    }
  }
  return url;
}

/** A success's `data`: the envelope unwrapped; an answer that is no envelope (the OpenAPI document) as it is. */
function dataOf(text: string, response: Response, requestId: string | null, attempts: number): unknown {
  if (text === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EncoreApiError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `Encore answered ${response.status} with a body that is not JSON`,
      requestId,
      retryAfterMs: null,
      attempts,
    });
  }
  const isEnvelope = !!body && typeof body === 'object' && 'status' in body && 'data' in body && 'errors' in body;
  return isEnvelope ? (body as { data: unknown }).data : body;
}

function apiErrorOf(
  response: Response,
  text: string,
  requestId: string | null,
  retryAfterMs: number | null,
  attempts: number,
): EncoreApiError {
  const errors = envelopeErrorOf(text);
  return new EncoreApiError({
    status: response.status,
    code: errors?.code ?? 'UNEXPECTED_RESPONSE',
    message: errors?.message ?? `Encore answered ${response.status} ${response.statusText} without an error envelope`,
    details: errors?.details,
    requestId,
    retryAfterMs,
    attempts,
  });
}

function reasonOf(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof inner?.code === 'string' ? inner.code : typeof inner?.message === 'string' ? inner.message : '';
  return detail && !cause.message.includes(detail) ? `${cause.message}: ${detail}` : cause.message;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
