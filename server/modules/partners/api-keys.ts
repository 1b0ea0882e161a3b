import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { apiKeys } from '@/db/schema/partners';
import { badRequest, notFound } from '@/server/lib/errors';
import { newId, randomBase62, sha256Hex } from '@/server/lib/ids';
import type { SecretKeyKind } from './schemas';
import { defaultChannel, getChannel } from './channels';
import { forgetCheckedKeys } from './key-authentication';
import { KEY_PREFIX, KEY_VISIBLE_CHARS } from './key-prefixes';
import { createPartner, getPartner } from './partners';
import { publishableKeyOf } from './publishable-keys';
import { testPartnerOf } from './test-twins';

export type ApiKeyRecord = Omit<typeof apiKeys.$inferSelect, 'hash' | 'publishableKey'>;

const publicKeyColumns = {
  id: apiKeys.id,
  partnerId: apiKeys.partnerId,
  kind: apiKeys.kind,
  channelId: apiKeys.channelId,
  label: apiKeys.label,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** The partner's secret keys (`sk_…`), newest first; its publishable key is `publishableKeyOf`'s. */
export async function listApiKeys(partnerId: string, db: DbOrTx, channelId?: string): Promise<ApiKeyRecord[]> {
  return db
    .select(publicKeyColumns)
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.partnerId, partnerId),
        ne(apiKeys.kind, 'publishable'),
        channelId ? eq(apiKeys.channelId, channelId) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.createdAt));
}

/** Creates a key and returns its secret. The secret is never stored and cannot be shown again. */
export async function createApiKey(
  input: { partnerId: string; kind: SecretKeyKind; label?: string; channelId?: string },
  db: DbOrTx,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const partner = await getPartner(input.partnerId, db);
  const prefixes = KEY_PREFIX[partner.mode];
  // A channels key opens the Channels API as one channel: the one named, else the partner's first
  // (created as "Default channel" when it has none).
  const channelId =
    input.kind === 'channels'
      ? input.channelId
        ? (await getChannel(input.partnerId, input.channelId, db)).id
        : (await defaultChannel(input.partnerId, db)).id
      : null;
  if (input.kind === 'partner' && input.channelId)
    throw badRequest('Only a channels key belongs to a channel', [
      { path: 'channelId', message: 'not for partner keys' },
    ]);
  const secret = `${prefixes[input.kind]}${randomBase62(32)}`;
  const [key] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      partnerId: input.partnerId,
      kind: input.kind,
      channelId,
      label: input.label ?? '',
      prefix: secret.slice(0, prefixes[input.kind].length + KEY_VISIBLE_CHARS),
      hash: sha256Hex(secret),
    })
    .returning(publicKeyColumns);
  return { key, secret };
}

/** Revokes a secret key. A publishable key is not revoked alone (the partner would have none): it is rotated. */
export async function revokeApiKey(partnerId: string, keyId: string, db: DbOrTx): Promise<ApiKeyRecord> {
  const [key] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.partnerId, partnerId), ne(apiKeys.kind, 'publishable')))
    .returning(publicKeyColumns);
  if (!key) throw notFound('API key not found');
  forgetCheckedKeys();
  return key;
}

/**
 * Partner plus one partner key and one channels key, and the same two for its test twin
 * (`sk_test_…`, `sk_test_ch_…`), with the publishable keys `createPartner` made for both (`pk_live_…`,
 * `pk_test_…`): what the CLI, the dashboard and the demo seed create.
 */
export async function createPartnerWithKeys(name: string, db: DbOrTx) {
  return db.transaction(async (tx) => {
    const partner = await createPartner({ name }, tx);
    const testPartner = (await testPartnerOf(partner.id, tx))!;
    const key = (partnerId: string, kind: SecretKeyKind) =>
      createApiKey({ partnerId, kind, label: 'initial' }, tx).then((k) => k.secret);
    const publishable = async (partnerId: string) => (await publishableKeyOf(partnerId, tx))!.key;
    const apiKey = await key(partner.id, 'partner');
    const channelsApiKey = await key(partner.id, 'channels');
    const testApiKey = await key(testPartner.id, 'partner');
    const testChannelsApiKey = await key(testPartner.id, 'channels');
    return {
      partner,
      apiKey,
      channelsApiKey,
      publishableKey: await publishable(partner.id),
      testPartner,
      testApiKey,
      testChannelsApiKey,
      testPublishableKey: await publishable(testPartner.id),
    };
  });
}

/** What `npm run partner:create` prints (and the e2e set-up answers): a new partner's ids and keys. */
export async function createPartnerCredentials(name: string, db: DbOrTx) {
  const created = await createPartnerWithKeys(name, db);
  return {
    partnerId: created.partner.id,
    apiKey: created.apiKey,
    channelsApiKey: created.channelsApiKey,
    publishableKey: created.publishableKey,
    testPartnerId: created.testPartner.id,
    testApiKey: created.testApiKey,
    testChannelsApiKey: created.testChannelsApiKey,
    testPublishableKey: created.testPublishableKey,
  };
}
