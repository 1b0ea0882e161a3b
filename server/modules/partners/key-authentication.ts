import type { Sql } from 'postgres';
import { deferredTouch } from '@/server/lib/deferred-touch';
import { sha256Hex } from '@/server/lib/ids';
import type { ApiKeyKind, PartnerMode } from './schemas';
import { modeOfKey } from './key-prefixes';
import { processCache } from '@/server/lib/short-cache';

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
  /**
   * For a publishable key (`pk_…`): the origins whose pages may use it (CORS), empty for any origin; read
   * with the key and remembered with it. Null for secret keys, which no browser page may use.
   */
  widgetOrigins: string[] | null;
}

/**
 * Resolves a presented key to its partner, or null for unknown and revoked keys. One indexed lookup and
 * no write: the key's last use is noted in memory and written by a timer (`keyUse` below).
 */
export async function authenticateApiKey(
  rawKey: string,
  /** The handle's postgres.js client (`getSql()` at the entry point): one statement, no drizzle. */
  sql: Sql,
): Promise<AuthenticatedKey | null> {
  if (rawKey.length < 10 || rawKey.length > 200) return null;
  const hash = sha256Hex(rawKey);
  const cached = keyCache.get(hash);
  if (cached && cached.until > Date.now()) return cached.key;
  const looked = await lookUpApiKey(hash, sql);
  // A key's prefix must say its partner's mode: a live key never opens a test space, nor the reverse.
  const found = looked && looked.mode === modeOfKey(rawKey) ? looked : null;
  // Only genuine keys are remembered: a key created a moment ago is never refused from memory.
  if (found) rememberKey(hash, found);
  return found;
}

/**
 * How long this instance trusts a key it has checked: bulk callers send hundreds of calls a second,
 * and the lookup was the larger part of a small call. Revoking or rotating a key, disabling a partner or
 * changing its widget origins clears this instance's memory at once; other instances follow within this time.
 */
const KEY_CACHE_MS = 5_000;
const KEY_CACHE_MAX = 10_000;

interface CachedKey {
  key: AuthenticatedKey;
  until: number;
}

// Shared by the process's bundles: a revocation made from the dashboard must clear what the partner API
// remembers in the same process.
const keyCache = processCache<CachedKey>('checked-keys', { max: KEY_CACHE_MAX });

function rememberKey(hash: string, key: AuthenticatedKey): void {
  keyCache.set(hash, { key, until: Date.now() + KEY_CACHE_MS });
}

/** Forget every checked key (after a revocation, a rotation, a partner's disabling or widget origins; tests). */
export function forgetCheckedKeys(): void {
  keyCache.clear();
}

async function lookUpApiKey(hash: string, sql: Sql): Promise<AuthenticatedKey | null> {
  // Every partner call comes through here: one statement through postgres.js directly (drizzle's query
  // building cost about 0.5 ms of CPU a call, three times the query's own time).
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
      widget_origins: string[] | null;
    }[]
  >`
    select k.partner_id, p.name as partner_name, k.id as key_id, k.prefix as key_prefix, k.kind,
      k.channel_id, c.name as channel_name, coalesce(c.disabled_at is not null, false) as channel_disabled,
      (k.last_used_at is null or k.last_used_at < now() - interval '60 seconds') as stale,
      (p.disabled_at is not null or lp.disabled_at is not null) as partner_disabled, p.mode,
      case when k.kind = 'publishable' then p.widget_origins end as widget_origins
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
    widgetOrigins: row.widget_origins,
  };
}

/**
 * A key's use is noted in memory and written within 2 s by a timer (server/lib/deferred-touch.ts), at most
 * once a minute per key: a call never writes, and "last used" needs no more precision.
 */
const keyUse = deferredTouch(
  'api key last use',
  2_000,
  (sql, ids) => sql`
  update api_keys set last_used_at = now()
  where id = any(${ids}) and (last_used_at is null or last_used_at < now() - interval '60 seconds')`,
);
