import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { partners } from '@/db/schema/partners';
import { processCache } from '@/server/lib/short-cache';

/**
 * A partner's allowed return origins as the proxy reads them on every embeddable fan page (to answer
 * `frame-ancestors`). Remembered for RETURN_ORIGINS_CACHE_MS so a page view costs no query; a change by
 * staff clears this instance's copy at once, other instances follow within that time.
 */
const RETURN_ORIGINS_CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

interface Cached {
  /** Null: no such partner. */
  origins: string[] | null;
  until: number;
}

// Shared by the process's bundles: a change made from the dashboard must clear what the proxy remembers.
const cache = processCache<Cached>('return-origins', { max: CACHE_MAX });

/** The partner's allowed return origins (empty: none set), or null for an unknown partner. */
export async function returnOriginsOf(partnerId: string, db: DbOrTx): Promise<string[] | null> {
  const hit = cache.get(partnerId);
  if (hit && hit.until > Date.now()) return hit.origins;
  const [row] = await db.select({ origins: partners.returnOrigins }).from(partners).where(eq(partners.id, partnerId));
  const origins = row ? row.origins : null;
  cache.set(partnerId, { origins, until: Date.now() + RETURN_ORIGINS_CACHE_MS });
  return origins;
}

/** Forget what this instance remembers of a partner's origins (after staff changed them). */
export function forgetReturnOrigins(partnerId: string): void {
  cache.delete(partnerId);
}
