import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { partners } from '@/db/schema/partners';
import { badRequest } from '@/server/lib/errors';
import type { TestPartnerWipe } from '@/server/lib/wipe';
import type { PartnerMode } from './schemas';
import type { Partner } from './partners';
import { processCache } from '@/server/lib/short-cache';

/** The live partner's test twin, or null (none yet, or not a live partner). */
export async function testPartnerOf(livePartnerId: string, db: DbOrTx): Promise<Partner | null> {
  const [row] = await db
    .select()
    .from(partners)
    .where(and(eq(partners.livePartnerId, livePartnerId), eq(partners.mode, 'test')));
  return row ?? null;
}

// A partner's mode never changes, so it is remembered for the process (fan pages ask it on every render).
const modes = processCache<PartnerMode>('partner-modes', { max: 10_000 });

/** The partner's mode (`live` for an unknown id: nothing of a test space is shown for it). */
export async function modeOfPartner(partnerId: string, db: DbOrTx): Promise<PartnerMode> {
  const known = modes.get(partnerId);
  if (known) return known;
  const [row] = await db.select({ mode: partners.mode }).from(partners).where(eq(partners.id, partnerId));
  if (!row) return 'live';
  modes.set(partnerId, row.mode);
  return row.mode;
}

/**
 * The first statement of a wipe of test data: locks the partner's row when, and only when, it is a test
 * twin (the guard is this statement's WHERE, not a read before it). A live partner or an unknown id is a
 * 400 and nothing is deleted. Each module's wipe takes the answer, so none runs without it.
 */
export async function lockTestPartnerForWipe(partnerId: string, tx: DbOrTx): Promise<TestPartnerWipe> {
  const [row] = await tx
    .update(partners)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(partners.id, partnerId), eq(partners.mode, 'test')))
    .returning({ id: partners.id });
  if (!row)
    throw badRequest('Only a test partner’s data can be wiped', [{ path: 'partnerId', message: 'not a test partner' }]);
  return { partnerId: row.id } as TestPartnerWipe;
}
