import { z } from 'zod';
import { AppError, formatPath, type InputLocation, invalidInput, zodDetails } from '@/server/lib/errors';
import { findUnstorable, storableText } from '@/server/lib/storable';

function validationError(error: z.ZodError, where: InputLocation): AppError {
  // "title is required", "shows[0].status: Invalid option: …"
  return invalidInput(zodDetails(error, where), where, (first) =>
    !first.path
      ? first.message
      : first.message.startsWith('is ')
        ? `${first.path} ${first.message}`
        : `${first.path}: ${first.message}`,
  );
}

/**
 * Refuses, before any schema or query sees it, what PostgreSQL could not store (NUL characters, unpaired
 * surrogates, hostile nesting): a 400 naming each such field instead of a 500 — or worse, a queued
 * import that fails on every retry.
 */
export function assertStorable(value: unknown, where: InputLocation): void {
  const found = findUnstorable(value);
  if (!found.length) return;
  const details = found.map((f) => ({
    path: formatPath(f.path.map((p) => (typeof p === 'string' ? storableText(p) : p))),
    message: f.message,
    in: where,
  }));
  throw invalidInput(details, where);
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: InputLocation): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** URLSearchParams → plain object; a repeated key becomes an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * Reads a JSON body with a hard size limit (checked on Content-Length and again while streaming, so a
 * lying or absent header cannot get past it). A body that is not JSON gets 415 or 400, never a 500.
 */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const type = req.headers.get('content-type');
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json (got ${type.split(';')[0]})`);
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body)
    throw new AppError('BAD_REQUEST', 'Request body is required', {
      details: [{ path: '', message: 'is required', in: 'body' }],
    });

  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    throw new AppError('BAD_REQUEST', 'Request body is required', {
      details: [{ path: '', message: 'is required', in: 'body' }],
    });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('BAD_REQUEST', `Malformed JSON in request body: ${(err as Error).message}`, {
      details: [{ path: '', message: 'is not valid JSON', in: 'body' }],
    });
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${maxBytes} bytes`);
}
