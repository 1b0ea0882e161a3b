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
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'METHOD_NOT_ALLOWED'
  | 'BAD_GATEWAY'
  | 'INTERNAL';

export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** A partner's own server failed us (unreachable, timed out, answered nonsense). */
  BAD_GATEWAY: 502,
};

export interface ErrorDetail {
  /** Path of the offending field, e.g. `shows[0].ticketOptions[1].ticketId`; `` for the whole body. */
  path: string;
  message: string;
  /** Where the field is: request body, query string or path. */
  in?: 'body' | 'query' | 'path';
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError('BAD_REQUEST', message, { details });

/** The PostgreSQL error behind a failure, whether thrown as is or wrapped (drizzle wraps query errors). */
export function pgErrorOf(err: unknown): { code?: string; constraint_name?: string } | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return e as { code?: string; constraint_name?: string };
  }
  return undefined;
}
