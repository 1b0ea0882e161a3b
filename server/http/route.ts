import type { z } from 'zod';
import { getDb } from '@/db';
import { env } from '@/server/env';
import { AppError, clientErrorFrom } from '@/server/lib/errors';
import { errorFields, log } from '@/server/lib/log';
import { recordApiRequest } from '@/server/lib/metrics';
import type { AuthenticatedKey } from '@/server/modules/partners';
import { authenticate } from './auth';
import type { RouteContract } from '@/server/lib/contract';
import { errorResponse, successBody, textResponse } from './envelope';
import {
  completeIdempotentCall,
  type IdempotencyClaim,
  idempotencyKeyOf,
  releaseIdempotentCall,
  requestFingerprint,
  startIdempotentCall,
} from './idempotency';
import { enforce } from '@/server/lib/rate-limit';
import { requestIdOf } from './request-id';
import { assertStorable, parseInput, queryObject, readJsonBody } from './request';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

export interface HandlerContext<Q, B, P> {
  req: Request;
  requestId: string;
  /** The calling partner; present on every route whose contract has `auth` other than `none`. */
  partner: AuthenticatedKey;
  query: Q;
  body: B;
  params: P;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * The one wrapper every `/v1` route handler goes through: request id, key auth and partner context,
 * per-route rate limit, zod parsing of path, query and body (errors name each bad field), the spec's
 * envelope, error mapping (never a 500 for client input), one structured log line per request and the
 * request's count and duration in the operators' metrics (by route template, never the raw path), and
 * `Idempotency-Key` on mutating calls (./idempotency.ts): a repeated call replays the first one's answer.
 */
export function handle<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  contract: RouteContract<Q, B, P, R>,
  fn: (ctx: HandlerContext<z.output<Q>, z.output<B>, z.output<P>>) => Promise<z.output<R>>,
) {
  return async (req: Request, routeCtx?: NextRouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let partnerId: string | undefined;
    let status = 500;
    // Held from the claim until the answer is stored: a 5xx releases it, a 4xx or 200 completes it.
    let claim: IdempotencyClaim | undefined;
    let answered = false;
    try {
      let partner = undefined as unknown as AuthenticatedKey;
      if (contract.auth !== 'none') {
        partner = await authenticate(req, contract.auth);
        partnerId = partner.partnerId;
      }
      const rateHeaders = contract.rateLimit ? await enforce(contract.rateLimit, partnerId ?? 'anonymous') : {};
      const idempotencyKey = partnerId ? idempotencyKeyOf(req, contract.method) : null;
      const { params, query, body, rawBody } = await parseRequest(contract, req, routeCtx);
      const headers: Record<string, string> = { 'x-request-id': requestId, ...rateHeaders };

      if (idempotencyKey) {
        const url = new URL(req.url);
        const start = await startIdempotentCall(getDb(), {
          key: idempotencyKey,
          caller: partner,
          method: contract.method,
          path: url.pathname,
          fingerprint: requestFingerprint(contract.method, url, rawBody),
        });
        if (start.kind === 'replay') {
          status = start.status;
          return textResponse(start.body, status, { ...headers, 'idempotent-replayed': 'true' });
        }
        claim = start.claim;
      }

      const data = await fn({ req, requestId, partner, query, body, params } as HandlerContext<
        z.output<Q>,
        z.output<B>,
        z.output<P>
      >);
      status = 200;
      answered = true;
      const text = JSON.stringify(contract.raw ? data : successBody(data, status, contract.emptyErrorsArray));
      // Stored before it is answered: every 200 a caller sees is one a retry with the key replays.
      if (claim) await completeIdempotentCall(getDb(), claim, status, text);
      return textResponse(text, status, headers);
    } catch (err) {
      const appError = err instanceof AppError ? err : clientErrorFrom(err);
      if (appError) {
        status = appError.status;
        const response = errorResponse(appError, requestId);
        // A 4xx the call itself answered is its result (Stripe's rule); it is replayed like a 200. A 5xx
        // (a partner's server failing us) is not: the key is freed, so the retry asks again.
        if (claim && status >= 500) await releaseIdempotentCall(getDb(), claim).catch(() => {});
        else if (claim) {
          await completeIdempotentCall(getDb(), claim, status, await response.clone().text()).catch((e) =>
            log.warn('could not store an idempotent 4xx answer', { requestId, ...errorFields(e) }),
          );
        }
        return response;
      }
      status = 500;
      // A failure on our side is not stored: the key is freed and a retry runs the call again. When the
      // call ran but storing its answer failed, the claim is kept (until its lease ends) rather than freed.
      if (claim && !answered) await releaseIdempotentCall(getDb(), claim).catch(() => {});
      log.error('unhandled error in partner API', { requestId, partnerId, route: contract.path, ...errorFields(err) });
      return errorResponse(
        new AppError('INTERNAL', `Internal error; quote request id ${requestId} to support`),
        requestId,
      );
    } finally {
      const ms = performance.now() - started;
      recordApiRequest(contract.method, contract.path, status, ms / 1000);
      log.info('request', {
        requestId,
        partnerId,
        method: contract.method,
        route: contract.path,
        status,
        durationMs: Math.round(ms * 10) / 10,
      });
    }
  };
}

/** Path, query and body checked against the contract; `rawBody` is the JSON as sent (for the fingerprint). */
async function parseRequest<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  contract: RouteContract<Q, B, P, R>,
  req: Request,
  routeCtx: NextRouteContext | undefined,
) {
  const rawParams = routeCtx ? await routeCtx.params : {};
  assertStorable(rawParams, 'path');
  const params = contract.params ? parseInput(contract.params, rawParams, 'path') : rawParams;
  const rawQuery = queryObject(new URL(req.url).searchParams);
  assertStorable(rawQuery, 'query');
  const query = contract.query ? parseInput(contract.query, rawQuery, 'query') : {};
  let body: unknown = undefined;
  let rawBody: unknown = undefined;
  if (contract.body) {
    rawBody = await readJsonBody(req, contract.maxBodyBytes ?? env().MAX_BODY_BYTES);
    assertStorable(rawBody, 'body');
    body = parseInput(contract.body, rawBody, 'body');
  }
  return { params, query, body, rawBody };
}

/** Catch-all for unknown `/v1` paths: a 404 in the envelope, never Next's HTML page. */
export async function notFoundRoute(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  const { pathname } = new URL(req.url);
  log.info('request', { requestId, method: req.method, route: 'unknown', path: pathname, status: 404 });
  return errorResponse(new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${pathname}`), requestId);
}
