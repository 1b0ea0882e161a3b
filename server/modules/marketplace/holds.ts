import { sql, type SQL } from 'drizzle-orm';
import { buyIntentions, listings, type ListingStatus } from '@/db/schema/marketplace';

/**
 * A listing as every read sees it now, without writing: no read ever writes. A RESERVED listing
 * whose buy intention is still PENDING past its `expiresAt` is free: the expiry job, the minute sweep or
 * the next buyer's claim (in its own transaction) ends that hold, and until then every read already
 * counts the listing as ACTIVE. `t` names the listings table by an alias (raw SQL), else the table itself.
 */
function columns(t?: string) {
  return t
    ? { status: sql.raw(`${t}.status`), reservedBy: sql.raw(`${t}.reserved_by`) }
    : { status: sql`${listings.status}`, reservedBy: sql`${listings.reservedBy}` };
}

/** SQL: the listing is RESERVED by an intention whose time is up (the hold no longer counts). */
export function holdIsOver(t?: string): SQL<boolean> {
  const c = columns(t);
  return sql<boolean>`(${c.status} = 'RESERVED' and exists (select 1 from ${buyIntentions} hold_bi
    where hold_bi.id = ${c.reservedBy} and hold_bi.status = 'PENDING' and hold_bi.expires_at <= now()))`;
}

/** SQL: the listing's status as buyers, sellers, partners and staff see it now (an expired hold is ACTIVE). */
export function listingStatusNow(t?: string): SQL<ListingStatus> {
  const c = columns(t);
  return sql<ListingStatus>`(case when ${holdIsOver(t)} then 'ACTIVE' else ${c.status} end)`;
}

/** SQL: the listing is buyable now: ACTIVE, or RESERVED by a hold whose time is up. */
export function isBuyableNow(t?: string): SQL<boolean> {
  const c = columns(t);
  return sql<boolean>`(${c.status} = 'ACTIVE' or ${holdIsOver(t)})`;
}

/** SQL: the listing's status now is `status` (a filter by status that agrees with listingStatusNow). */
export function statusNowIs(status: ListingStatus, t?: string): SQL<boolean> {
  const c = columns(t);
  if (status === 'ACTIVE') return isBuyableNow(t);
  if (status === 'RESERVED') return sql<boolean>`(${c.status} = 'RESERVED' and not ${holdIsOver(t)})`;
  return sql<boolean>`(${c.status} = ${status})`;
}

/** SQL: a buy intention's status now: PENDING past its `expiresAt` reads as EXPIRED (the sweep ends it). */
export const intentionStatusNow = sql<(typeof buyIntentions.$inferSelect)['status']>`(case
  when ${buyIntentions.status} = 'PENDING' and ${buyIntentions.expiresAt} <= now() then 'EXPIRED'
  else ${buyIntentions.status} end)`;
