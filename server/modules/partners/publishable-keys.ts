import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { apiKeys } from '@/db/schema/partners';
import { conflict, pgErrorOf } from '@/server/lib/errors';
import { newId, randomBase62, sha256Hex } from '@/server/lib/ids';
import { afterCommit } from '@/server/lib/transaction';
import { forgetCheckedKeys } from './key-authentication';
import { KEY_PREFIX, KEY_VISIBLE_CHARS, modeOfKey } from './key-prefixes';
import { type PartnerMode, type RotatePublishableKeyInput, rotatePublishableKeyInput } from './schemas';

/**
 * A partner's publishable key (`pk_live_…` / `pk_test_…`): what the widget on the partner's pages sends. It
 * is not a secret (it sits in every page that shows the widget), so it is kept whole and always shown; it
 * opens only the widget's reads, the buy access layer's GET and the fan's resale entry (server/http/publishable.ts). Exactly one is active per partner row
 * (the live partner and its test twin each have their own), from the partner's creation on.
 */
export interface PublishableKey {
  id: string;
  partnerId: string;
  key: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const columns = {
  id: apiKeys.id,
  partnerId: apiKeys.partnerId,
  // Never null for a publishable key (the table's check says so).
  key: apiKeys.publishableKey,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

const ONE_ACTIVE_INDEX = 'api_keys_one_publishable_idx';

function asPublishable(row: { key: string | null } & Omit<PublishableKey, 'key'>): PublishableKey {
  return { ...row, key: row.key ?? '' };
}

/**
 * Makes the partner row's publishable key, by its mode. `createPartner` calls it for the live partner and
 * its twin in their transaction; migration 0043 gave one to every partner made before.
 */
export async function createPublishableKey(partnerId: string, mode: PartnerMode, db: DbOrTx): Promise<PublishableKey> {
  const prefix = KEY_PREFIX[mode].publishable;
  const key = `${prefix}${randomBase62(32)}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      partnerId,
      kind: 'publishable',
      label: '',
      prefix: key.slice(0, prefix.length + KEY_VISIBLE_CHARS),
      hash: sha256Hex(key),
      publishableKey: key,
    })
    .returning(columns);
  return asPublishable(row);
}

/** The partner row's active publishable key (null only for a row made outside `createPartner`). */
export async function publishableKeyOf(partnerId: string, db: DbOrTx): Promise<PublishableKey | null> {
  const [row] = await db
    .select(columns)
    .from(apiKeys)
    .where(and(eq(apiKeys.partnerId, partnerId), eq(apiKeys.kind, 'publishable'), isNull(apiKeys.revokedAt)));
  return row ? asPublishable(row) : null;
}

/**
 * Replaces the publishable key staff saw (`keyId`) with a new one, in one transaction, with no grace period:
 * the old key is refused at once on this instance and within the key cache's 5 s on the others. The guard is
 * the conditional revoke (it must touch the key while it is active) and the one-active index: a second
 * rotation of the same key, or two at once, is a 409 and makes no second key.
 */
export async function rotatePublishableKey(
  input: RotatePublishableKeyInput,
  db: DbOrTx,
): Promise<{ revoked: PublishableKey; key: PublishableKey }> {
  const { partnerId, keyId } = rotatePublishableKeyInput.parse(input);
  const rotated = await db.transaction(async (tx) => {
    const [old] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, keyId),
          eq(apiKeys.partnerId, partnerId),
          eq(apiKeys.kind, 'publishable'),
          isNull(apiKeys.revokedAt),
        ),
      )
      .returning(columns);
    if (!old) throw conflict('This publishable key is not active: it was rotated already, or is not this partner’s');
    const revoked = asPublishable(old);
    const key = await createPublishableKey(partnerId, modeOfKey(revoked.key), tx).catch((err: unknown) => {
      if (pgErrorOf(err)?.constraint_name === ONE_ACTIVE_INDEX) throw conflict('The publishable key was just rotated');
      throw err;
    });
    return { revoked, key };
  });
  // Once committed: a key checked between this forgetting and the commit would be remembered as valid.
  afterCommit(db, forgetCheckedKeys);
  return rotated;
}
