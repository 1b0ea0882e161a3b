import { and, eq } from 'drizzle-orm';
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
  const { items } = await listMessages({ partnerId, action, pageSize: 100, ...(channelId ? { channelId } : {}) });
  return items;
}
