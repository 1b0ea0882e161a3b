import { AppError, type ErrorDetail } from '@/server/lib/errors';

/** The spec's response envelope. `errors` is null on success (an empty array on access-layer successes). */
export interface Envelope<T> {
  status: number;
  data: T | null;
  errors: null | [] | { message: string; code: string; details?: ErrorDetail[] };
}

export function successBody<T>(data: T, status = 200, emptyErrorsArray = false): Envelope<T> {
  return { status, data, errors: emptyErrorsArray ? [] : null };
}

/** The envelope of an error answer (`data: null`, the message, code and any field details). */
export function errorBody(err: AppError): Envelope<never> {
  return {
    status: err.status,
    data: null,
    errors: { message: err.message, code: err.code, ...(err.details?.length ? { details: err.details } : {}) },
  };
}

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), status, headers);
}

/** A JSON answer already serialised (e.g. a stored answer replayed byte for byte). */
export function textResponse(text: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(err: AppError, requestId: string): Response {
  return jsonResponse(errorBody(err), err.status, { 'x-request-id': requestId, ...err.headers });
}
