import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { type DbOrTx, getSql } from '@/db';
import { apiKeys, channels, partners } from '@/db/schema/partners';
import { env } from '@/server/env';
import { badRequest, type ErrorDetail, notFound } from '@/server/lib/errors';
import { deferredTouch } from '@/server/lib/deferred-touch';
import { parseReturnOrigin } from '@/server/lib/return-origins';
import type { TestPartnerWipe } from '@/server/lib/wipe';
import { forgetReturnOrigins } from './return-origins';
import { newId, newSigningSecret, randomBase62, sha256Hex } from '@/server/lib/ids';
import {
  type ApiKeyKind,
  type PartnerMode,
  type CreatePartnerInput,
  type ListPartnersInput,
  type RenamePartnerInput,
  type SetPartnerDisabledInput,
  type SetPrimarySalesFeeInput,
  createPartnerInput,
  listPartnersInput,
  renamePartnerInput,
  setPartnerLogoInput,
  type SetPartnerLogoInput,
  setPartnerDisabledInput,
  setPartnerReturnOriginsInput,
  type SetPartnerReturnOriginsInput,
  setPartnerSupportInput,
  type SetPartnerSupportInput,
  setPrimarySalesFeeInput,
} from './schemas';

export type Partner = typeof partners.$inferSelect;
export type Channel = typeof channels.$inferSelect;
export type ApiKeyRecord = Omit<typeof apiKeys.$inferSelect, 'hash'>;

/** A key's prefix by the mode of its partner and its kind (a test twin's keys say so: `sk_test_…`). */
const KEY_PREFIX: Record<PartnerMode, Record<ApiKeyKind, string>> = {
  live: { partner: 'sk_live_', channels: 'sk_ch_' },
  test: { partner: 'sk_test_', channels: 'sk_test_ch_' },
};
const VISIBLE_CHARS = 6;

/** The kind of key its prefix says (`sk_ch_` or `sk_test_ch_`: channels; anything else: partner). */
export function kindOfKey(rawKey: string): ApiKeyKind {
  // `sk_test_ch_` starts with `sk_test_`: the channels prefixes are tested first.
  return rawKey.startsWith(KEY_PREFIX.live.channels) || rawKey.startsWith(KEY_PREFIX.test.channels)
    ? 'channels'
    : 'partner';
}

/** The mode its prefix says: `sk_test_…` (and `sk_test_ch_…`) are test keys, every other key live. */
export function modeOfKey(rawKey: string): PartnerMode {
  return rawKey.startsWith(KEY_PREFIX.test.partner) ? 'test' : 'live';
}

/**
 * Creates a live partner and, in the same transaction, its test twin (issue 33): a partner row of its own
 * (`mode` test, `live_partner_id` the live one, same name) whose rows form the test data space.
 */
export async function createPartner(input: CreatePartnerInput, db: DbOrTx): Promise<Partner> {
  const { name } = createPartnerInput.parse(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(partners)
      .values({ id: newId('ptr'), name })
      .returning();
    await tx.insert(partners).values({ id: newId('ptr'), name, mode: 'test', livePartnerId: row.id });
    return row;
  });
}

/** The live partner's test twin, or null (none yet, or not a live partner). */
export async function testPartnerOf(livePartnerId: string, db: DbOrTx): Promise<Partner | null> {
  const [row] = await db
    .select()
    .from(partners)
    .where(and(eq(partners.livePartnerId, livePartnerId), eq(partners.mode, 'test')));
  return row ?? null;
}

// A partner's mode never changes, so it is remembered for the process (fan pages ask it on every render).
const modes = new Map<string, PartnerMode>();

/** The partner's mode (`live` for an unknown id: nothing of a test space is shown for it). */
export async function modeOfPartner(partnerId: string, db: DbOrTx): Promise<PartnerMode> {
  const known = modes.get(partnerId);
  if (known) return known;
  const [row] = await db.select({ mode: partners.mode }).from(partners).where(eq(partners.id, partnerId));
  if (!row) return 'live';
  if (modes.size >= 10_000) modes.clear();
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

export async function getPartner(partnerId: string, db: DbOrTx): Promise<Partner> {
  const [row] = await db.select().from(partners).where(eq(partners.id, partnerId));
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Renames the partner; a live partner's test twin takes the new name too. */
export async function renamePartner(input: RenamePartnerInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, name } = renamePartnerInput.parse(input);
  const rows = await db
    .update(partners)
    .set({ name, updatedAt: sql`now()` })
    .where(or(eq(partners.id, partnerId), eq(partners.livePartnerId, partnerId)))
    .returning();
  const row = rows.find((r) => r.id === partnerId);
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Sets (or with null / an empty string removes) the partner's logo shown on every fan page. */
export async function setPartnerLogo(input: SetPartnerLogoInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, logoUrl } = setPartnerLogoInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ logoUrl, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

/** Sets the partner's support contact for fans (each field: null or '' removes it; Encore's is used then). */
export async function setPartnerSupport(input: SetPartnerSupportInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, supportUrl, supportEmail } = setPartnerSupportInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ supportUrl, supportEmail, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

/**
 * Sets the partner's allowed return origins (an empty list removes them all): each must be an https
 * origin (http on a loopback host only with ALLOW_PRIVATE_PARTNER_URLS); a bad one is a 400 naming it.
 * Stored normalised and deduplicated; this process's cached copy is dropped at once (others: in seconds).
 */
export async function setPartnerReturnOrigins(input: SetPartnerReturnOriginsInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, returnOrigins } = setPartnerReturnOriginsInput.parse(input);
  const origins: string[] = [];
  const details: ErrorDetail[] = [];
  returnOrigins.forEach((raw, i) => {
    const parsed = parseReturnOrigin(raw, env().ALLOW_PRIVATE_PARTNER_URLS);
    if ('error' in parsed) details.push({ path: `returnOrigins[${i}]`, message: `${raw} ${parsed.error}` });
    else if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
  });
  if (details.length) throw badRequest(`Not an allowed return origin: ${details[0].message}`, details);
  const [row] = await db
    .update(partners)
    .set({ returnOrigins: origins, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  forgetReturnOrigins(partnerId);
  return row;
}

/**
 * Disables or re-enables a partner. Disabling deletes nothing: keys, catalogue and tickets stay, the
 * keys just answer 403 until the partner is enabled again. Disabling twice keeps the first time.
 */
export async function setPartnerDisabled(input: SetPartnerDisabledInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, disabled } = setPartnerDisabledInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({
      disabledAt: disabled ? sql`coalesce(${partners.disabledAt}, now())` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  forgetCheckedKeys();
  return row;
}

/**
 * Sets (or with null removes) the partner's default primary sales fee. Only `{ type, value }` is
 * stored; FIXED is an amount in major units of each ticket's currency.
 */
export async function setPrimarySalesFee(input: SetPrimarySalesFeeInput, db: DbOrTx): Promise<Partner> {
  const { partnerId, primarySalesFee: fee } = setPrimarySalesFeeInput.parse(input);
  const [row] = await db
    .update(partners)
    .set({ primarySalesFee: fee ? { type: fee.type, value: fee.value } : null, updatedAt: sql`now()` })
    .where(eq(partners.id, partnerId))
    .returning();
  if (!row) throw notFound('Partner not found');
  return row;
}

export async function listPartners(input: ListPartnersInput, db: DbOrTx) {
  const { search, page, pageSize } = listPartnersInput.parse(input);
  // Live partners only: a test twin is reached from its live partner's page (its Test mode section).
  const where = and(
    eq(partners.mode, 'live'),
    search ? ilike(partners.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  // Table-qualified by hand: drizzle renders a lone column of the outer table without its table name.
  const activeKeys = sql<number>`(select count(*)::int from api_keys k where k.partner_id = "partners"."id" and k.revoked_at is null and k.kind = 'partner')`;
  const [items, [{ total }]] = await Promise.all([
    db
      .select({
        id: partners.id,
        name: partners.name,
        createdAt: partners.createdAt,
        disabledAt: partners.disabledAt,
        activeKeys,
      })
      .from(partners)
      .where(where)
      .orderBy(desc(partners.createdAt), desc(partners.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(partners).where(where),
  ]);
  return { items, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

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

export async function listApiKeys(partnerId: string, db: DbOrTx, channelId?: string): Promise<ApiKeyRecord[]> {
  return db
    .select(publicKeyColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.partnerId, partnerId), channelId ? eq(apiKeys.channelId, channelId) : undefined))
    .orderBy(desc(apiKeys.createdAt));
}

/** One of the partner's channels (404 for another partner's: nothing is learnt of it). */
export async function getChannel(partnerId: string, channelId: string, db: DbOrTx): Promise<Channel> {
  const [row] = await db
    .select()
    .from(channels)
    .where(and(eq(channels.id, channelId), eq(channels.partnerId, partnerId)));
  if (!row) throw notFound('Channel not found');
  return row;
}

/** The partner's first channel, created as "Default channel" when it has none (for keys made without one). */
async function defaultChannel(partnerId: string, db: DbOrTx): Promise<Channel> {
  const [first] = await db
    .select()
    .from(channels)
    .where(eq(channels.partnerId, partnerId))
    .orderBy(asc(channels.createdAt), asc(channels.id))
    .limit(1);
  if (first) return first;
  const [created] = await db
    .insert(channels)
    .values({ id: newId('chn'), partnerId, name: 'Default channel', signingSecret: newSigningSecret() })
    .returning();
  return created;
}

/** Creates a key and returns its secret. The secret is never stored and cannot be shown again. */
export async function createApiKey(
  input: { partnerId: string; kind: ApiKeyKind; label?: string; channelId?: string },
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
      prefix: secret.slice(0, prefixes[input.kind].length + VISIBLE_CHARS),
      hash: sha256Hex(secret),
    })
    .returning(publicKeyColumns);
  return { key, secret };
}

export async function revokeApiKey(partnerId: string, keyId: string, db: DbOrTx): Promise<ApiKeyRecord> {
  const [key] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.partnerId, partnerId)))
    .returning(publicKeyColumns);
  if (!key) throw notFound('API key not found');
  forgetCheckedKeys();
  return key;
}

/**
 * Partner plus one partner key and one channels key, and the same two for its test twin
 * (`sk_test_…`, `sk_test_ch_…`): what the CLI, the dashboard and the demo seed create.
 */
export async function createPartnerWithKeys(name: string, db: DbOrTx) {
  return db.transaction(async (tx) => {
    const partner = await createPartner({ name }, tx);
    const testPartner = (await testPartnerOf(partner.id, tx))!;
    const key = (partnerId: string, kind: ApiKeyKind) =>
      createApiKey({ partnerId, kind, label: 'initial' }, tx).then((k) => k.secret);
    const apiKey = await key(partner.id, 'partner');
    const channelsApiKey = await key(partner.id, 'channels');
    const testApiKey = await key(testPartner.id, 'partner');
    const testChannelsApiKey = await key(testPartner.id, 'channels');
    return { partner, apiKey, channelsApiKey, testPartner, testApiKey, testChannelsApiKey };
  });
}

/** What `npm run partner:create` prints (and the e2e set-up answers): a new partner's ids and keys. */
export async function createPartnerCredentials(name: string, db: DbOrTx) {
  const { partner, apiKey, channelsApiKey, testPartner, testApiKey, testChannelsApiKey } = await createPartnerWithKeys(
    name,
    db,
  );
  return {
    partnerId: partner.id,
    apiKey,
    channelsApiKey,
    testPartnerId: testPartner.id,
    testApiKey,
    testChannelsApiKey,
  };
}

export interface AuthenticatedKey {
  partnerId: string;
  partnerName: string;
  keyId: string;
  keyPrefix: string;
  kind: ApiKeyKind;
  /** `test` for a test twin's key (`sk_test_…`): the twin's data space and the sandbox. */
  mode: PartnerMode;
  /** The channel a channels key belongs to (null for partner keys). */
  channelId: string | null;
  channelName: string | null;
  /** The partner is disabled by staff: the key is genuine but may not be used (403). */
  partnerDisabled: boolean;
  /** The key's channel is disabled by staff (403 likewise). */
  channelDisabled: boolean;
}

/**
 * Resolves a presented key to its partner, or null for unknown and revoked keys. One indexed lookup and
 * no write: the key's last use is noted in memory and written by a timer (`keyUse` below).
 */
export async function authenticateApiKey(rawKey: string): Promise<AuthenticatedKey | null> {
  if (rawKey.length < 10 || rawKey.length > 200) return null;
  const hash = sha256Hex(rawKey);
  const cached = keyCache().get(hash);
  if (cached && cached.until > Date.now()) return cached.key;
  const looked = await lookUpApiKey(hash);
  // A key's prefix must say its partner's mode: a live key never opens a test space, nor the reverse.
  const found = looked && looked.mode === modeOfKey(rawKey) ? looked : null;
  // Only genuine keys are remembered: a key created a moment ago is never refused from memory.
  if (found) rememberKey(hash, found);
  return found;
}

/**
 * How long this instance trusts a key it has checked: bulk callers send hundreds of calls a second,
 * and the lookup was the larger part of a small call. Revoking a key or disabling a partner clears
 * this instance's memory at once; other instances stop accepting it within this time.
 */
const KEY_CACHE_MS = 5_000;
const KEY_CACHE_MAX = 10_000;

interface CachedKey {
  key: AuthenticatedKey;
  until: number;
}

// On globalThis: Next.js bundles route handlers and the dashboard's tRPC separately, and a revocation
// made from the dashboard must clear what the partner API remembers in the same process.
const store = globalThis as typeof globalThis & { __encoreKeyCache?: Map<string, CachedKey> };
function keyCache(): Map<string, CachedKey> {
  store.__encoreKeyCache ??= new Map();
  return store.__encoreKeyCache;
}

function rememberKey(hash: string, key: AuthenticatedKey): void {
  const cache = keyCache();
  if (cache.size >= KEY_CACHE_MAX) cache.clear();
  cache.set(hash, { key, until: Date.now() + KEY_CACHE_MS });
}

/** Forget every checked key (after a revocation or a partner's disabling; tests). */
export function forgetCheckedKeys(): void {
  keyCache().clear();
}

async function lookUpApiKey(hash: string): Promise<AuthenticatedKey | null> {
  // Every partner call comes through here: one statement through postgres.js directly (drizzle's query
  // building cost about 0.5 ms of CPU a call, three times the query's own time).
  const sql = getSql();
  const [row] = await sql<
    {
      partner_id: string;
      partner_name: string;
      key_id: string;
      key_prefix: string;
      kind: ApiKeyKind;
      channel_id: string | null;
      channel_name: string | null;
      channel_disabled: boolean;
      stale: boolean;
      partner_disabled: boolean;
      mode: PartnerMode;
    }[]
  >`
    select k.partner_id, p.name as partner_name, k.id as key_id, k.prefix as key_prefix, k.kind,
      k.channel_id, c.name as channel_name, coalesce(c.disabled_at is not null, false) as channel_disabled,
      (k.last_used_at is null or k.last_used_at < now() - interval '60 seconds') as stale,
      (p.disabled_at is not null or lp.disabled_at is not null) as partner_disabled, p.mode
    from api_keys k join partners p on p.id = k.partner_id left join channels c on c.id = k.channel_id
      left join partners lp on lp.id = p.live_partner_id
    where k.hash = ${hash} and k.revoked_at is null`;
  if (!row) return null;
  // A disabled partner's calls are refused, so they do not count as use either.
  if (!row.partner_disabled && row.stale) keyUse.note(row.key_id);
  return {
    partnerId: row.partner_id,
    partnerName: row.partner_name,
    keyId: row.key_id,
    keyPrefix: row.key_prefix,
    kind: row.kind,
    mode: row.mode,
    channelId: row.channel_id,
    channelName: row.channel_name,
    partnerDisabled: row.partner_disabled,
    channelDisabled: row.channel_disabled,
  };
}

/**
 * A key's use is noted in memory and written within 2 s by a timer (server/lib/deferred-touch.ts), at most
 * once a minute per key: a call never writes (issue 34), and "last used" needs no more precision.
 */
const keyUse = deferredTouch(
  'api key last use',
  2_000,
  (ids) => getSql()`
  update api_keys set last_used_at = now()
  where id = any(${ids}) and (last_used_at is null or last_used_at < now() - interval '60 seconds')`,
);
