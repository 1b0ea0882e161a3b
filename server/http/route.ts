import type { z } from 'zod';
import { getDb } from '@/db';
import { env } from '@/server/env';
import { noteDatabaseFault } from '@/server/lib/db-health';
import { AppError, clientErrorFrom, unavailableFrom } from '@/server/lib/errors';
import { errorFields, log } from '@/server/lib/log';
import { recordApiRequest } from '@/server/lib/metrics';
import { transaction, withCommitGuard, type Work } from '@/server/lib/transaction';
import type { AuthenticatedKey } from '@/server/modules/partners';
import { authenticate } from './auth';
import type { RouteContract } from '@/server/lib/contract';
import { errorResponse, successBody, textResponse } from './envelope';
import {
  bindIdempotentEffect,
  completeIdempotentCall,
  type IdempotencyClaim,
  idempotencyKeyOf,
  releaseIdempotentCall,
  requestFingerprint,
  startIdempotentCall,
  storeIdempotentAnswer,
} from './idempotency';
import { enforce } from '@/server/lib/rate-limit';
import { admitPublishableCall, widgetCorsHeaders } from './publishable';
import { requestIdOf } from './request-id';
import { assertStorable, parseInput, queryObject, readJsonBody } from './request';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

export interface HandlerContext<Q, B, P, D = unknown> {
  req: Request;
  requestId: string;
  /** The calling partner; present on every route whose contract has `auth` other than `none`. */
  partner: AuthenticatedKey;
  query: Q;
  body: B;
  params: P;
  /**
   * Runs the call's write transaction (`transaction()`) whose result is the answer's `data`: with an
   * `Idempotency-Key`, the answer is stored in that same transaction, so the effect and the answer a retry
   * replays commit together. A handler whose repeat would make a second effect answers this way.
   */
  commit(fn: (work: Work) => Promise<D>): Promise<D>;
}

export interface RouteOptions {
  /**
   * Safe to run again when a call with an `Idempotency-Key` committed its effect but its answer was lost
   * (the process died between them): a natural upsert or set, or a repeat its own guard answers without a
   * second effect. Not set: such a call is never run again for the key (409). Routes that answer through
   * `ctx.commit` never leave an effect without its answer.
   */
  repeatable?: boolean;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * The one wrapper every `/v1` route handler goes through: request id, key auth and partner context,
 * per-route rate limit, zod parsing of path, query and body (errors name each bad field), the spec's
 * envelope, error mapping (never a 500 for client input), one structured log line per request and the
 * request's count and duration in the operators' metrics (by route template, never the raw path),
 * `Idempotency-Key` on mutating calls (./idempotency.ts): a repeated call replays the first one's answer, and
 * on the operation that takes a publishable key, its origin check, limit and CORS headers (./publishable.ts).
 */
export function handle<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  contract: RouteContract<Q, B, P, R>,
  fn: (ctx: HandlerContext<z.output<Q>, z.output<B>, z.output<P>, z.output<R>>) => Promise<z.output<R>>,
  options: RouteOptions = {},
) {
  const [repeatable, serialise] = [options.repeatable === true, (data: z.output<R>) => answerText(contract, data)];
  return async (req: Request, routeCtx?: NextRouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let partnerId: string | undefined;
    let status = 500;
    // Held from the claim until the answer is stored: a 5xx releases it, a 4xx or 200 completes it.
    let claim: IdempotencyClaim | undefined;
    let answered = false;
    // `stored`: set when `ctx.commit` stored the answer with the effect (it is not stored again).
    const answer: { stored?: string } = {};
    // Set once the key is known: its answer's CORS headers depend on it (./publishable.ts).
    const caller: { key?: AuthenticatedKey } = {};
    const withCors = (response: Response) => withHeaders(response, widgetCors(req, contract, caller.key));
    try {
      const rateHeaders = await admit(contract, req, caller);
      const partner = caller.key;
      partnerId = partner?.partnerId;
      const idempotencyKey = partnerId ? idempotencyKeyOf(req, contract.method) : null;
      const { params, query, body, rawBody } = await parseRequest(contract, req, routeCtx);
      const headers = { 'x-request-id': requestId, ...rateHeaders, ...widgetCors(req, contract, partner) };

      if (idempotencyKey) {
        const start = await claimKey(req, contract.method, partner!, idempotencyKey, rawBody, repeatable);
        if (start.kind === 'replay') {
          status = start.status;
          return textResponse(start.body, status, { ...headers, 'idempotent-replayed': 'true' });
        }
        claim = start.claim;
      }

      const data = await runCall(claim, serialise, answer, (commit) =>
        fn({ req, requestId, partner, query, body, params, commit } as HandlerContext<
          z.output<Q>,
          z.output<B>,
          z.output<P>,
          z.output<R>
        >),
      );
      status = 200;
      answered = true;
      const text = answer.stored ?? serialise(data);
      // Stored before it is answered: every 200 a caller sees is one a retry with the key replays.
      if (claim && answer.stored === undefined) await completeIdempotentCall(getDb(), claim, status, text);
      return textResponse(text, status, headers);
    } catch (err) {
      // The answer committed with the effect is the call's result: a retry replays it, whatever failed after.
      if (answer.stored !== undefined) claim = undefined;
      const appError = answeredError(err, { requestId, partnerId, route: contract.path });
      if (appError) {
        status = appError.status;
        const response = withCors(errorResponse(appError, requestId));
        // A 4xx the call itself answered is its result (Stripe's rule); it is replayed like a 200. A 5xx
        // (a partner's server failing us) is not: the key is freed, so the retry asks again.
        if (claim && status >= 500) await releaseIdempotentCall(getDb(), claim, repeatable).catch(() => {});
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
      if (claim && !answered) await releaseIdempotentCall(getDb(), claim, repeatable).catch(() => {});
      log.error('unhandled error in partner API', { requestId, partnerId, route: contract.path, ...errorFields(err) });
      return withCors(
        errorResponse(new AppError('INTERNAL', `Internal error; quote request id ${requestId} to support`), requestId),
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

/**
 * The error as the caller is answered it: its own, a value PostgreSQL refused (400), or the database's
 * outage (503, logged as a warning); null for a failure of ours (500).
 */
function answeredError(err: unknown, where: Record<string, unknown>): AppError | null {
  if (err instanceof AppError) return err;
  const known = clientErrorFrom(err) ?? unavailableFrom(err);
  if (known?.code === 'UNAVAILABLE') {
    log.warn('database unavailable', { ...where, ...errorFields(err) });
    noteDatabaseFault(err);
  }
  return known;
}

/**
 * The caller's key (unless the route takes none) and the call's rate limit; a publishable key's call is held
 * to its partner's widget origins and counted per key, origin and client address in memory instead. Answers the rate-limit headers.
 * `caller.key` is set as soon as the key is known, so an error after it is answered with the key's CORS headers.
 */
async function admit(contract: AnyContract, req: Request, caller: { key?: AuthenticatedKey }) {
  if (contract.auth === 'none') return contract.rateLimit ? enforce(contract.rateLimit, 'anonymous') : {};
  const key = await authenticate(req, contract.auth, contract.publishableKey === true);
  caller.key = key;
  if (key.kind === 'publishable') return admitPublishableCall(req, key);
  return contract.rateLimit ? enforce(contract.rateLimit, key.partnerId) : {};
}

/** The response with `headers` set too. */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** CORS headers: only on the answers of calls made with a publishable key (./publishable.ts). */
function widgetCors(req: Request, contract: AnyContract, key: AuthenticatedKey | undefined) {
  return widgetCorsHeaders(req, contract.publishableKey === true, key);
}

type AnyContract = RouteContract<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

/** The 200's exact bytes: the data, in the envelope unless the contract is `raw`. */
function answerText(contract: RouteContract<z.ZodType, z.ZodType, z.ZodType, z.ZodType>, data: unknown): string {
  return JSON.stringify(contract.raw ? data : successBody(data, 200, contract.emptyErrorsArray));
}

/** Claims the call's `Idempotency-Key`, or finds the answer to replay (./idempotency.ts). */
function claimKey(
  req: Request,
  method: RouteContract<z.ZodType, z.ZodType, z.ZodType, z.ZodType>['method'],
  caller: AuthenticatedKey,
  key: string,
  rawBody: unknown,
  repeatable: boolean,
) {
  const url = new URL(req.url);
  const fingerprint = requestFingerprint(method, url, rawBody);
  return startIdempotentCall(getDb(), { key, caller, method, path: url.pathname, fingerprint, repeatable });
}

/**
 * Runs the handler. With a claim: every transaction it commits through `transaction()` first checks that the
 * call still holds the claim and marks the key's row (`bindIdempotentEffect`), and `commit` stores the
 * answer, serialised as the wrapper answers it, in the transaction of the effect (`answer.stored`).
 */
function runCall<D>(
  claim: IdempotencyClaim | undefined,
  serialise: (data: D) => string,
  answer: { stored?: string },
  run: (commit: (work: (w: Work) => Promise<D>) => Promise<D>) => Promise<D>,
): Promise<D> {
  const commit = (work: (w: Work) => Promise<D>) =>
    transaction(async (w) => {
      const data = await work(w);
      if (claim) {
        const text = serialise(data);
        await storeIdempotentAnswer(w.tx, claim, 200, text);
        answer.stored = text;
      }
      return data;
    }, getDb());
  if (!claim) return run(commit);
  return withCommitGuard(
    (tx) => bindIdempotentEffect(tx, claim),
    () => run(commit),
  );
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
