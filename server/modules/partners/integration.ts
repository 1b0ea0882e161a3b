import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { partnerIntegrations } from '@/db/schema/integrations';
import { badRequest, type ErrorDetail } from '@/server/lib/errors';
import { partnerUrlProblem } from '@/server/lib/outbound';
import { FEED_INTERVAL_MINUTES, type UpdateIntegrationInput, updateIntegrationInput } from './schemas';
import { getPartner } from './partners';

/**
 * A partner's integration settings: where Encore verifies ticket ownership, where it reads the event
 * feed and how often, and the auth header both calls carry. The header value is a secret: it is
 * stored as given (Encore must send it) but never read back out through this module's public shape.
 */

export type IntegrationRow = typeof partnerIntegrations.$inferSelect;

export interface IntegrationSettings {
  partnerId: string;
  verificationUrl: string | null;
  verificationFieldMap: Record<string, string>;
  feedUrl: string | null;
  feedIntervalMinutes: number;
  authHeaderName: string | null;
  /** Whether a header value is stored; the value itself is never returned. */
  authHeaderValueSet: boolean;
  /** `…` plus the last 4 characters, only for values of 12 characters or more (shorter ones would give too much away). */
  authHeaderValueHint: string | null;
  feedLastRunAt: Date | null;
  feedLastError: string | null;
  feedNextRunAt: Date | null;
  /** Null until the settings are first saved. */
  updatedAt: Date | null;
}

const HINT_MIN_LENGTH = 12;

export function maskSecret(value: string | null): string | null {
  if (!value || value.length < HINT_MIN_LENGTH) return null;
  return `…${value.slice(-4)}`;
}

function toSettings(partnerId: string, row: IntegrationRow | null): IntegrationSettings {
  return {
    partnerId,
    verificationUrl: row?.verificationUrl ?? null,
    verificationFieldMap: row?.verificationFieldMap ?? {},
    feedUrl: row?.feedUrl ?? null,
    feedIntervalMinutes: row?.feedIntervalMinutes ?? FEED_INTERVAL_MINUTES.default,
    authHeaderName: row?.authHeaderName ?? null,
    authHeaderValueSet: Boolean(row?.authHeaderValue),
    authHeaderValueHint: maskSecret(row?.authHeaderValue ?? null),
    feedLastRunAt: row?.feedLastRunAt ?? null,
    feedLastError: row?.feedLastError ?? null,
    feedNextRunAt: row?.feedNextRunAt ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}

/** The stored row, secret included: for the partner client only, never for display. */
export async function loadIntegration(partnerId: string, db: DbOrTx): Promise<IntegrationRow | null> {
  const [row] = await db.select().from(partnerIntegrations).where(eq(partnerIntegrations.partnerId, partnerId));
  return row ?? null;
}

/** The settings as staff see them. A partner never configured gets the defaults (nothing is written). */
export async function getIntegration(partnerId: string, db: DbOrTx): Promise<IntegrationSettings> {
  await getPartner(partnerId, db);
  return toSettings(partnerId, await loadIntegration(partnerId, db));
}

/**
 * Saves the given settings; omitted fields keep their stored values (see `updateIntegrationInput`).
 * Feed schedule: a new feed URL is due at once (and forgets the old URL's error); a new interval counts
 * from the last run; no feed URL means no next run.
 */
export async function updateIntegration(input: UpdateIntegrationInput, db: DbOrTx): Promise<IntegrationSettings> {
  const data = updateIntegrationInput.parse(input);
  await getPartner(data.partnerId, db);

  const urlErrors = (
    await Promise.all([
      data.verificationUrl ? partnerUrlProblem(data.verificationUrl, 'verificationUrl') : null,
      data.feedUrl ? partnerUrlProblem(data.feedUrl, 'feedUrl') : null,
    ])
  ).filter((d): d is ErrorDetail => d !== null);
  if (urlErrors.length > 0) throw badRequest(urlErrors[0].message, urlErrors);

  const row = await db.transaction(async (tx) => {
    // The row exists from here on; FOR UPDATE makes concurrent partial updates apply one after the other.
    await tx.insert(partnerIntegrations).values({ partnerId: data.partnerId }).onConflictDoNothing();
    const [current] = await tx
      .select()
      .from(partnerIntegrations)
      .where(eq(partnerIntegrations.partnerId, data.partnerId))
      .for('update');

    const headerName = data.authHeaderName === undefined ? current.authHeaderName : data.authHeaderName;
    let headerValue = data.authHeaderValue === undefined ? current.authHeaderValue : data.authHeaderValue;
    if (headerName === null && data.authHeaderValue === undefined) headerValue = null; // no name: the secret goes too
    if (headerName !== null && headerValue === null) {
      throw badRequest('Enter the auth header value', [
        { path: 'authHeaderValue', message: 'Enter the value for this header' },
      ]);
    }
    if (headerName === null && headerValue !== null) {
      throw badRequest('Enter the auth header name', [
        { path: 'authHeaderName', message: 'Enter the name of the header that carries this value' },
      ]);
    }

    const feedUrl = data.feedUrl === undefined ? current.feedUrl : data.feedUrl;
    const interval = data.feedIntervalMinutes ?? current.feedIntervalMinutes;
    const now = new Date();
    let feedNextRunAt = current.feedNextRunAt;
    let feedLastError = current.feedLastError;
    if (feedUrl === null) {
      feedNextRunAt = null;
    } else if (feedUrl !== current.feedUrl) {
      feedNextRunAt = now;
      feedLastError = null;
    } else if (interval !== current.feedIntervalMinutes || feedNextRunAt === null) {
      feedNextRunAt = current.feedLastRunAt ? new Date(current.feedLastRunAt.getTime() + interval * 60_000) : now;
    }

    const [saved] = await tx
      .update(partnerIntegrations)
      .set({
        verificationUrl: data.verificationUrl === undefined ? current.verificationUrl : data.verificationUrl,
        verificationFieldMap: data.verificationFieldMap ?? current.verificationFieldMap,
        feedUrl,
        feedIntervalMinutes: interval,
        authHeaderName: headerName,
        authHeaderValue: headerValue,
        feedNextRunAt,
        feedLastError,
        updatedAt: now,
      })
      .where(eq(partnerIntegrations.partnerId, data.partnerId))
      .returning();
    return saved;
  });
  return toSettings(data.partnerId, row);
}

/** Notes one feed run: when it ran, its error (null on success), and when the next one is due. */
export async function recordFeedRun(partnerId: string, error: string | null, db: DbOrTx): Promise<IntegrationSettings> {
  const [row] = await db
    .update(partnerIntegrations)
    .set({
      feedLastRunAt: sql`now()`,
      feedLastError: error,
      feedNextRunAt: sql`now() + make_interval(mins => ${partnerIntegrations.feedIntervalMinutes})`,
    })
    .where(eq(partnerIntegrations.partnerId, partnerId))
    .returning();
  return toSettings(partnerId, row ?? null);
}

/** At most this many partners are claimed per sweep; the rest are claimed by the next one. */
const FEED_CLAIM_BATCH = 200;

const isDue = () => and(isNotNull(partnerIntegrations.feedUrl), lte(partnerIntegrations.feedNextRunAt, sql`now()`));

/**
 * Claims the partners whose feed is due, oldest first, by moving their next run one interval ahead in
 * the same statement. Rows another sweep is claiming are skipped (SKIP LOCKED), and once committed a
 * claim is no longer due, so two app instances never pull the same partner twice in one period.
 */
export async function claimDueFeeds(db: DbOrTx, limit = FEED_CLAIM_BATCH): Promise<string[]> {
  const due = db
    .select({ partnerId: partnerIntegrations.partnerId })
    .from(partnerIntegrations)
    .where(isDue())
    .orderBy(asc(partnerIntegrations.feedNextRunAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(partnerIntegrations)
    .set({ feedNextRunAt: sql`now() + make_interval(mins => ${partnerIntegrations.feedIntervalMinutes})` })
    .where(and(inArray(partnerIntegrations.partnerId, due), isDue()))
    .returning({ partnerId: partnerIntegrations.partnerId });
  return rows.map((r) => r.partnerId);
}

/** Makes a claimed partner due again (its pull could not be queued), so the next sweep retries it. */
export async function releaseFeedClaim(partnerId: string, db: DbOrTx): Promise<void> {
  await db
    .update(partnerIntegrations)
    .set({ feedNextRunAt: sql`now()` })
    .where(and(eq(partnerIntegrations.partnerId, partnerId), isNotNull(partnerIntegrations.feedUrl)));
}
