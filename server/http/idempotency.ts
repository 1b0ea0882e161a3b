import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import type { HttpMethod } from '@/server/lib/contract';
import { AppError } from '@/server/lib/errors';
import { log } from '@/server/lib/log';
import type { AuthenticatedKey } from '@/server/modules/partners';

/**
 * `Idempotency-Key` on mutating `/v1` calls, with Stripe's semantics (docs/idempotency.md):
 * the first call with a key claims it (a row in `idempotency_keys`, unique per caller and key) before
 * the handler runs; a later call with the same key and the same request gets its answer again with
 * `Idempotent-Replayed: true`, and with another request a 422. A call that meets a claim still running
 * waits for it (up to WAIT_MS) and replays its answer, else answers 409.
 *
 * Never run twice: every transaction the call commits checks, last, that the call still holds
 * the claim and marks its row (`bindIdempotentEffect`: `effect_at`); a handler whose answer is its write
 * transaction's result stores the answer in that same transaction (`storeIdempotentAnswer`, through
 * `ctx.commit` in route.ts). So a process dying between its effect and its answer leaves either both or
 * neither; and a claim whose effect committed without its answer (a handler that answers after further
 * work) is run again only by a route declared safe to repeat, else refused with a 409.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;
const MUTATING: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a key and its answer are kept: after this the key is free again. */
const KEPT_HOURS = 24;
/**
 * A claim this old was left by a process that died mid-call (no call runs this long): the next call
 * with the key and the same request may take it over and run.
 */
const LEASE_SECONDS = 300;
const WAIT_MS = 10_000;
const POLL_MS = 25;

export function isMutating(method: HttpMethod): boolean {
  return MUTATING.has(method);
}

/** The key a mutating call sent (null when it sent none, or for GET: the header is ignored there). */
export function idempotencyKeyOf(req: Request, method: HttpMethod): string | null {
  if (!isMutating(method)) return null;
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new AppError(
      'BAD_REQUEST',
      `${IDEMPOTENCY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters long (got ${key.length})`,
      { details: [{ path: IDEMPOTENCY_HEADER, message: `must be 1 to ${MAX_KEY_LENGTH} characters`, in: 'header' }] },
    );
  }
  return key;
}

/** Object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** What makes two calls "the same request": method, path, query and body (as JSON, key order aside). */
export function requestFingerprint(method: HttpMethod, url: URL, body: unknown): string {
  const query = [...url.searchParams].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
  const text = JSON.stringify([method, url.pathname, query, canonical(body ?? null)]);
  return createHash('sha256').update(text).digest('hex');
}

export interface IdempotentCall {
  key: string;
  caller: AuthenticatedKey;
  method: HttpMethod;
  path: string;
  fingerprint: string;
  /**
   * The route is safe to run again after its effect committed and its answer was lost (a natural upsert,
   * a repeat its own guard answers): a dead claim past its lease is taken over even then. Else such a
   * claim is refused (409) until the key expires.
   */
  repeatable: boolean;
}

/** A claim this call holds: it runs the handler, then completes (or releases) the claim. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  token: string;
}

export type IdempotencyStart =
  { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: string };

/** Keys are per partner, and per channel for a channels key: two callers never see each other's. */
function scopeOf(caller: AuthenticatedKey): string {
  return caller.channelId ? `${caller.partnerId}/${caller.channelId}` : caller.partnerId;
}

/**
 * Claims the key for this call, or finds the answer to replay. One statement decides the claim: the
 * insert collides on the (scope, key) primary key, and takes the row over only when it is older than
 * KEPT_HOURS (not yet swept) or is a dead claim of this same request whose effect did not commit (or
 * whose route is safe to repeat). A claim's own commit holds the row's lock (`bindIdempotentEffect`), so a
 * takeover racing a late commit waits for it and then sees `effect_at`.
 */
export async function startIdempotentCall(db: DbOrTx, call: IdempotentCall): Promise<IdempotencyStart> {
  const scope = scopeOf(call.caller);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const token = randomBytes(12).toString('base64url');
    const claimed = await db.execute(sql`
      insert into idempotency_keys (scope, key, partner_id, fingerprint, method, path, claim)
      values (${scope}, ${call.key}, ${call.caller.partnerId}, ${call.fingerprint}, ${call.method}, ${call.path}, ${token})
      on conflict (scope, key) do update set
        fingerprint = excluded.fingerprint, method = excluded.method, path = excluded.path, claim = excluded.claim,
        state = 'in_progress', claimed_at = now(), created_at = now(), completed_at = null,
        response_status = null, response_body = null, effect_at = null
      where idempotency_keys.created_at < now() - make_interval(hours => ${KEPT_HOURS})
        or (idempotency_keys.state = 'in_progress' and idempotency_keys.fingerprint = excluded.fingerprint
            and idempotency_keys.claimed_at < now() - make_interval(secs => ${LEASE_SECONDS})
            and (idempotency_keys.effect_at is null or ${call.repeatable}))
      returning scope`);
    if (claimed.length) return { kind: 'claimed', claim: { scope, key: call.key, token } };

    const [row] = await db.execute<{
      fingerprint: string;
      method: string;
      path: string;
      state: string;
      response_status: number | null;
      response_body: string | null;
      lost: boolean;
    }>(sql`select fingerprint, method, path, state, response_status, response_body,
             (effect_at is not null and claimed_at < now() - make_interval(secs => ${LEASE_SECONDS})) as lost
           from idempotency_keys where scope = ${scope} and key = ${call.key}`);
    if (!row) continue; // released (the first call failed on our side) or swept in between: claim again
    if (row.fingerprint !== call.fingerprint) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        `${IDEMPOTENCY_HEADER} was already used with another request (${row.method} ${row.path} with other parameters); use a new key for a new request`,
        { details: [{ path: IDEMPOTENCY_HEADER, message: 'was used with another request', in: 'header' }] },
      );
    }
    if (row.state === 'done') return { kind: 'replay', status: row.response_status!, body: row.response_body! };
    if (row.lost) {
      // Not repeatable (else the insert above took it over): running it again could apply it twice.
      throw new AppError(
        'CONFLICT',
        `The request with this ${IDEMPOTENCY_HEADER} was applied but its answer was lost (the server stopped before sending it); it is not run again: read the result with a GET`,
      );
    }
    if (Date.now() >= deadline) {
      throw new AppError(
        'CONFLICT',
        `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry after it has finished`,
        { headers: { 'retry-after': '1' } },
      );
    }
    await sleep(POLL_MS);
  }
}

/**
 * In the call's own transaction, last: the call still holds its claim (else the transaction fails, 409, and
 * rolls back: the claim was taken over after its lease, and the call that took it runs instead), and the
 * row records that an effect committed. The row stays locked until the commit.
 */
export async function bindIdempotentEffect(tx: DbOrTx, claim: IdempotencyClaim): Promise<void> {
  const rows = await tx.execute(sql`
    update idempotency_keys set effect_at = coalesce(effect_at, now())
    where scope = ${claim.scope} and key = ${claim.key} and claim = ${claim.token} returning key`);
  if (!rows.length) throw claimLost();
}

/**
 * The answer stored in the transaction that makes the call's effect (`ctx.commit`): both commit, or
 * neither. Refuses (rolls the effect back) when the claim was taken over meanwhile.
 */
export async function storeIdempotentAnswer(
  tx: DbOrTx,
  claim: IdempotencyClaim,
  status: number,
  body: string,
): Promise<void> {
  const rows = await tx.execute(sql`
    update idempotency_keys set state = 'done', response_status = ${status}, response_body = ${body},
      completed_at = now(), effect_at = coalesce(effect_at, now())
    where scope = ${claim.scope} and key = ${claim.key} and claim = ${claim.token} and state = 'in_progress'
    returning key`);
  if (!rows.length) throw claimLost();
}

const claimLost = () =>
  new AppError(
    'CONFLICT',
    `This call outlived its ${IDEMPOTENCY_HEADER} claim and another call with the key took it over; nothing was applied by this one`,
  );

/** Stores the answer of the call that holds the claim: from now on the key replays it. */
export async function completeIdempotentCall(
  db: DbOrTx,
  claim: IdempotencyClaim,
  status: number,
  body: string,
): Promise<void> {
  const rows = await db.execute(sql`
    update idempotency_keys set state = 'done', response_status = ${status}, response_body = ${body},
      completed_at = now()
    where scope = ${claim.scope} and key = ${claim.key} and claim = ${claim.token} returning key`);
  // Only when the call outlived its lease and another call with the key took over (and ran it again).
  if (!rows.length) log.warn('idempotency claim was taken over before the call completed', { scope: claim.scope });
}

/**
 * Frees the key after a failure on our side (5xx): nothing is stored and a retry runs the call again. When
 * the call had already committed an effect and its route is not safe to repeat, the key is not freed: its
 * lease is ended instead, so a retry is told at once that the call was applied (409) rather than run twice.
 */
export async function releaseIdempotentCall(db: DbOrTx, claim: IdempotencyClaim, repeatable: boolean): Promise<void> {
  const freed = await db.execute(sql`delete from idempotency_keys
    where scope = ${claim.scope} and key = ${claim.key} and claim = ${claim.token} and state = 'in_progress'
      and (effect_at is null or ${repeatable}) returning key`);
  if (freed.length) return;
  await db.execute(sql`update idempotency_keys set claimed_at = now() - make_interval(secs => ${LEASE_SECONDS})
    where scope = ${claim.scope} and key = ${claim.key} and claim = ${claim.token} and state = 'in_progress'`);
}

/** Deletes keys older than KEPT_HOURS; returns how many. */
export async function sweepIdempotencyKeys(db: DbOrTx): Promise<number> {
  const rows = await db.execute(sql`delete from idempotency_keys
    where created_at < now() - make_interval(hours => ${KEPT_HOURS}) returning key`);
  return rows.length;
}

/**
 * Deletes a test partner's stored answers when staff wipe its test data (test mode): a replay must not
 * answer for a call whose effect is gone. The statement itself refuses a live partner (deletes nothing).
 */
export async function forgetTestIdempotencyKeys(partnerId: string, db: DbOrTx): Promise<number> {
  const rows = await db.execute(sql`delete from idempotency_keys
    where partner_id = ${partnerId} and exists (select 1 from partners where id = ${partnerId} and mode = 'test')
    returning key`);
  return rows.length;
}
