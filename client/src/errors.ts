import type { ErrorCode, ErrorDetail } from './types.js';

/**
 * Encore answered with an error: the envelope's `errors` (`{ message, code, details? }`) with the HTTP
 * status and the request id. Thrown for every answer that is not a success, once retries (if any) are spent.
 */
export class EncoreApiError extends Error {
  override readonly name = 'EncoreApiError';
  /** The HTTP status: 400 bad input, 401 bad key, 403 wrong kind of key, 404, 409, 422, 429, 5xx. */
  readonly status: number;
  /** The envelope's `errors.code` (`VALIDATION_FAILED`, `NOT_FOUND`…); `UNEXPECTED_RESPONSE` for an answer without one. */
  readonly code: ErrorCode | (string & {});
  /** On a 400, each bad field by its path (`shows[0].date`); empty otherwise. */
  readonly details: ErrorDetail[];
  /** `X-Request-Id`: quote it to Encore's support. */
  readonly requestId: string | null;
  /** `Retry-After` in milliseconds, when the answer had one (a 429 above the client's `maxRetryAfterMs`). */
  readonly retryAfterMs: number | null;
  /** Attempts made before giving up. */
  readonly attempts: number;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    details?: ErrorDetail[];
    requestId: string | null;
    retryAfterMs: number | null;
    attempts: number;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details ?? [];
    this.requestId = fields.requestId;
    this.retryAfterMs = fields.retryAfterMs;
    this.attempts = fields.attempts;
  }
}

/** No answer from Encore: the connection failed or the attempt timed out, on every attempt allowed. */
export class EncoreConnectionError extends Error {
  override readonly name = 'EncoreConnectionError';
  readonly attempts: number;

  constructor(message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.attempts = attempts;
  }
}

/** The envelope's `errors` of an error answer's text, when it has one. */
export function envelopeErrorOf(text: string): { message: string; code: string; details?: ErrorDetail[] } | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return null;
  const { message, code, details } = errors as Record<string, unknown>;
  if (typeof message !== 'string' || typeof code !== 'string') return null;
  return { message, code, ...(Array.isArray(details) ? { details: details as ErrorDetail[] } : {}) };
}
