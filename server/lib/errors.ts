import type { z } from 'zod';
import { isConnectionFault, OUTAGE_RETRY_AFTER_S } from './db-faults';
/**
 * The one error type modules throw for anything a caller did wrong or asked for that does not
 * exist. The partner API maps it to the envelope; tRPC maps it to its own codes.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'METHOD_NOT_ALLOWED'
  | 'BAD_GATEWAY'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** An `Idempotency-Key` sent again with another request than the one it was first used for. */
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** A partner's own server failed us (unreachable, timed out, answered nonsense). */
  BAD_GATEWAY: 502,
  /** Encore's database is unreachable for a moment (an outage, a restart): safe to retry after Retry-After. */
  UNAVAILABLE: 503,
};

export interface ErrorDetail {
  /** Path of the offending field, e.g. `shows[0].ticketOptions[1].ticketId`; `` for the whole body. */
  path: string;
  message: string;
  /** Where the field is: request body, query string, path or a header (`Idempotency-Key`). */
  in?: 'body' | 'query' | 'path' | 'header';
}

/**
 * Why a fan's action on their tickets or listing was refused, for the fan pages to say in the fan's
 * language (`fanErrors.<reason>` in the messages); the partner API answers the English message.
 */
export const FAN_ERROR_REASONS = [
  'NOT_FOUND',
  'NOT_OWNED',
  'HELD_BY_BUYER',
  'NOT_ON_SALE',
  'NOT_UNLISTED',
  'CANNOT_RELIST',
  'CHANGED',
  'LISTED_ELSEWHERE',
  'SAME_OWNER',
  'NOT_TRANSFERABLE',
  'TRANSFER_NOT_ALLOWED',
  'TRANSFER_LISTED',
  'CODE_REVEALED',
] as const;
export type FanErrorReason = (typeof FAN_ERROR_REASONS)[number];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly fanReason?: FanErrorReason;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: ErrorDetail[]; headers?: Record<string, string>; fanReason?: FanErrorReason } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details;
    this.headers = opts.headers;
    this.fanReason = opts.fanReason;
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

export const notFound = (message: string, fanReason?: FanErrorReason) =>
  new AppError('NOT_FOUND', message, { fanReason });
export const conflict = (message: string, fanReason?: FanErrorReason) =>
  new AppError('CONFLICT', message, { fanReason });
export const badRequest = (message: string, details?: ErrorDetail[], fanReason?: FanErrorReason) =>
  new AppError('BAD_REQUEST', message, { details, fanReason });

/** The PostgreSQL error behind a failure, whether thrown as is or wrapped (drizzle wraps query errors). */
export function pgErrorOf(err: unknown): { code?: string; constraint_name?: string } | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return e as { code?: string; constraint_name?: string };
  }
  return undefined;
}

/**
 * The one classification of database failures. Transient: the connection, the server's resources or a
 * serialization conflict (a retry may succeed). Client-caused: a value PostgreSQL refused (malformed or
 * out of range text, numbers and dates; and, as a net under the input checks, a NUL in jsonb (22P05) or
 * text (22021) and an index key too long (54000)), answered 400 instead of 500.
 */
export function isTransient(err: unknown): boolean {
  const code = pgErrorOf(err)?.code ?? (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^(08|40|53|57|58)/.test(code) || /^(CONNECTION_|CONNECT_TIMEOUT|ECONN|ETIMEDOUT|EPIPE)/.test(code);
}

const CLIENT_VALUE_CODES = new Set(['22P02', '22003', '22001', '22008', '22007', '22P05', '22021', '54000']);

/**
 * The 503 of a database outage (a connection refused, dropped or shut down: ./db-faults.ts), with
 * Retry-After; null for any other error.
 */
export function unavailableFrom(err: unknown): AppError | null {
  return isConnectionFault(err) ? databaseUnavailable() : null;
}

/** The partner API's and the dashboard's answer while the database is unreachable. */
export function databaseUnavailable(): AppError {
  return new AppError(
    'UNAVAILABLE',
    `Encore is unavailable for a moment; nothing of this call was lost: retry after ${OUTAGE_RETRY_AFTER_S} s`,
    { headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_S) } },
  );
}

/** Anything that is not an AppError but was still caused by the client (a database refusing a value). */
export function clientErrorFrom(err: unknown): AppError | null {
  if (CLIENT_VALUE_CODES.has(pgErrorOf(err)?.code ?? '')) {
    return new AppError('BAD_REQUEST', 'A value in the request is out of range or malformed');
  }
  return null;
}

export type InputLocation = 'body' | 'query' | 'path';

const LABEL: Record<InputLocation, string> = { body: 'request body', query: 'query parameter', path: 'path parameter' };

/** `['shows', 0, 'title']` → `shows[0].title` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'is required';
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}

/** Zod issues → the envelope's details, each naming the bad field by its path. */
export function zodDetails(error: z.ZodError, where: InputLocation): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issueMessage(issue), in: where }));
}

/**
 * The one 400 for bad input: the message names the first bad field ("Invalid request body: title is
 * required (and 2 more problems)"), `details` name every one. `describe` words the first problem.
 */
export function invalidInput(
  details: ErrorDetail[],
  where: InputLocation,
  describe: (first: ErrorDetail) => string = (d) => (d.path ? `${d.path} ${d.message}` : d.message),
): AppError {
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})` : '';
  return new AppError('VALIDATION_FAILED', `Invalid ${LABEL[where]}: ${describe(details[0])}${more}`, { details });
}
