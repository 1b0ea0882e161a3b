import { sql } from 'drizzle-orm';
import { type Db, type DbOrTx, getDb } from '@/db';
import { AppError } from '@/server/lib/errors';

export interface RateLimit {
  /** Name of the limited resource, part of the counter key (e.g. `sync-tickets`). */
  name: string;
  limit: number;
  windowSeconds: number;
  /** Whom the limit counts, said in the 429's message after the window (e.g. `for this key from one site`). */
  scope?: string;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until one more call would be accepted (only when refused). */
  retryAfter: number;
}

/**
 * Sliding-window limiter kept in PostgreSQL, so every app instance shares it. Exact: a call is
 * refused when `limit` calls were already accepted within the last `windowSeconds`, by the
 * database clock. One row per key, locked for the decision; refused calls are not counted. The row
 * keeps when its newest hit leaves the window (`expires_at`), after which `sweepRateLimitWindows`
 * deletes it: keys hold e-mails and client addresses, kept no longer than they limit anything.
 */
export async function consume(limit: RateLimit, subject: string, db: Db): Promise<RateDecision> {
  const key = `${limit.name}:${subject}`;
  const windowMs = limit.windowSeconds * 1000;
  return db.transaction(async (tx) => {
    // The row, made if missing, under its lock in one statement: a sweep deleting it at the same moment
    // cannot leave nothing to read (an insert and then a read could).
    const rows = await tx.execute<{ hits: string[] | number[]; now: string }>(
      sql`insert into rate_limit_windows (key) values (${key}) on conflict (key) do update set key = excluded.key
        returning hits, (extract(epoch from clock_timestamp()) * 1000)::bigint as now`,
    );
    const now = Number(rows[0].now);
    const kept = rows[0].hits.map(Number).filter((t) => t > now - windowMs);
    if (kept.length >= limit.limit) {
      const retryAfter = Math.max(1, Math.ceil((kept[kept.length - limit.limit] + windowMs - now) / 1000));
      return { allowed: false, remaining: 0, retryAfter };
    }
    kept.push(now);
    await tx.execute(sql`update rate_limit_windows set hits = ${`{${kept.join(',')}}`}::bigint[],
      expires_at = greatest(expires_at, to_timestamp(${now + windowMs}::bigint / 1000.0)) where key = ${key}`);
    return { allowed: true, remaining: limit.limit - kept.length, retryAfter: 0 };
  });
}

/**
 * Gives back one call `consume` accepted (its newest hit; `expires_at` stays, a bound the older hits keep), for limits that count only some outcomes: a
 * sign-in consumes before the password is checked, so however many attempts arrive at once no more than
 * `limit` are checked, and gives the hit back when the password was right.
 */
export async function release(limit: RateLimit, subject: string, db: Db): Promise<void> {
  const key = `${limit.name}:${subject}`;
  await db.execute(
    sql`update rate_limit_windows set hits = hits[1:greatest(cardinality(hits) - 1, 0)] where key = ${key}`,
  );
}

/** The headers that tell a caller its limit and what is left of it. */
export function rateLimitHeaders(limit: RateLimit, remaining: number): Record<string, string> {
  return { 'x-ratelimit-limit': String(limit.limit), 'x-ratelimit-remaining': String(remaining) };
}

/**
 * The 429 envelope error of a call over `limit`: when to try again, in its message and in Retry-After; its
 * rate-limit headers are `shown`'s (the limit a caller is told of, when several count a call).
 */
export function rateLimited(limit: RateLimit, retryAfter: number, shown: RateLimit = limit): AppError {
  const per = limit.windowSeconds === 60 ? 'minute' : `${limit.windowSeconds} seconds`;
  return new AppError(
    'RATE_LIMITED',
    `Rate limit exceeded: at most ${limit.limit} requests per ${per}${limit.scope ? ` ${limit.scope}` : ''}. Retry after ${retryAfter} s.`,
    { headers: { ...rateLimitHeaders(shown, 0), 'retry-after': String(retryAfter) } },
  );
}

/** Throws the 429 envelope error (with Retry-After) when the call is over the limit. */
export async function enforce(limit: RateLimit, subject: string): Promise<Record<string, string>> {
  const decision = await consume(limit, subject, getDb());
  if (!decision.allowed) throw rateLimited(limit, decision.retryAfter);
  return rateLimitHeaders(limit, decision.remaining);
}

/** Deletes the windows whose every hit has left its window (they limit nothing any more); returns how many. */
export async function sweepRateLimitWindows(db: DbOrTx): Promise<number> {
  const rows = await db.execute(sql`delete from rate_limit_windows where expires_at < now() returning key`);
  return rows.length;
}
