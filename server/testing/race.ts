import { and, eq } from 'drizzle-orm';
import postgres from 'postgres';
import { expect } from 'vitest';
import { getDb } from '@/db';
import { mails } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { listMessages } from '@/server/modules/webhooks';

/** One attempt of a race: its HTTP status (an AppError's, 500 for anything else thrown) and what it gave. */
export interface Outcome<T> {
  status: number;
  value?: T;
  /** The refusal's message (an AppError's, or the thrown error's). */
  message?: string;
  /** The fan-facing reason of an AppError, when it has one. */
  fanReason?: string;
}

/**
 * Fires `n` attempts at once (started in the same tick, awaited together with Promise.allSettled) and
 * answers each one's outcome, in order. A resolved attempt is a 200 unless `statusOf` reads its status
 * from the value (a route's `{ status }`); a thrown AppError is its status; anything else thrown is a
 * 500, which a race test must never see.
 */
export async function race<T>(
  n: number,
  attempt: (i: number) => Promise<T>,
  statusOf: (value: T) => number = () => 200,
): Promise<Outcome<T>[]> {
  const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => attempt(i)));
  return settled.map((s) => {
    if (s.status === 'fulfilled') return { status: statusOf(s.value), value: s.value };
    const e = s.reason as unknown;
    if (e instanceof AppError) return { status: e.status, message: e.message, fanReason: e.fanReason ?? undefined };
    return { status: 500, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  });
}

/** The statuses of a race, sorted (so `[200, 409, 409, …]` reads as one winner and the refused). */
export const statuses = (outcomes: Outcome<unknown>[]) => outcomes.map((o) => o.status).sort((a, b) => a - b);

/** A route's answer as `race` reads it. */
export const routeStatus = (r: { status: number }) => r.status;

/** The mails of a partner of one kind, as queued (whoever they go to). */
export async function mailsOf(partnerId: string, kind: string) {
  return getDb()
    .select()
    .from(mails)
    .where(and(eq(mails.partnerId, partnerId), eq(mails.kind, kind)));
}

/** The partner's (or one channel's) webhook messages of one action, as queued in the outbox. */
export async function webhooksOf(partnerId: string, action: string, channelId?: string) {
  const { items } = await listMessages(
    { partnerId, action, pageSize: 100, ...(channelId ? { channelId } : {}) },
    getDb(),
  );
  return items;
}

/**
 * Holds the ticket's row lock on a connection of its own (as a listing being created or relisted does
 * under it) while `attempts` start, until they wait on it; then puts `listingId` on sale again and commits.
 */
export async function relistUnderTicketLock<T>(ticketPk: string, listingId: string, attempts: () => Promise<T>) {
  // Two connections: one holds the lock, the other watches the waiters (the app's pool is busy with them).
  const own = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
  try {
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = own.begin(async (tx) => {
      await tx`select id from tickets where id = ${ticketPk} for update`;
      locked();
      await new Promise<void>((resolve) => (release = resolve));
      await tx`update listings set status = 'ACTIVE', updated_at = now() where id = ${listingId}`;
      await tx`update listing_items set open = true where listing_id = ${listingId}`;
    });
    await isLocked;
    const running = attempts();
    // Until one attempt waits on a row lock (the ticket's, or a row it locks before it).
    await expect
      .poll(
        async () =>
          (
            await own`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`
          )[0].n,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    release();
    await holding;
    return await running;
  } finally {
    await own.end({ timeout: 5 });
  }
}
