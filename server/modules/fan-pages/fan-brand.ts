import type { Db } from '@/db';
import { partnerOfEvent } from '@/server/modules/catalog';
import { getPartner } from '@/server/modules/partners';
import { partnerOfTicket } from '@/server/modules/tickets';
import { sellerListing } from '@/server/modules/marketplace';
import { processCache } from '@/server/lib/short-cache';

/*
 * Whose brand a page that could not be found wears. A not-found page is handed only
 * the address; when that address names a partner's page (its buy page, a listing, a ticket's sell page,
 * its resale entry, or `?partner=` on sign-in and the expired-link page) and that partner exists and is
 * not disabled, the page shows its name and logo and the way to sign in there. An id that exists nowhere
 * names no partner: the page then says nothing of what exists elsewhere.
 */

const NAMED = /^\/(market|resale|sell|listing)\/([A-Za-z0-9_-]{1,100})(?:\/|$)/;
const BY_QUERY = new Set(['/login', '/auth/expired']);

export interface BrandPartner {
  id: string;
  name: string;
  logoUrl: string | null;
}

/*
 * Next.js renders a segment's not-found page into the payload of every page of that segment (it is the
 * fallback of the segment's boundary, rendered before anyone knows whether it is needed), so this runs
 * for every fan page, found or not. Two in-process memos keep it off the database on the hot path:
 * an event's, ticket's or listing's partner never changes (only ids found are kept, at most MEMO_SIZE,
 * the least lately used first out), and a partner's brand is kept BRAND_TTL_MS (a rename, a new logo or a disabling
 * shows on a not-found page within that time; nothing else is read from it).
 */
const MEMO_SIZE = 5000;
const BRAND_TTL_MS = 10_000;
const partnerOfId = processCache<string>('fan-brand-partner-of-id', { max: MEMO_SIZE });
const brands = processCache<{ at: number; brand: BrandPartner | null }>('fan-brand-brands', { max: MEMO_SIZE });

async function partnerIdOf(kind: string, id: string, db: Db): Promise<string | null> {
  if (kind === 'resale') return id;
  const key = `${kind}:${id}`;
  const known = partnerOfId.get(key);
  if (known) return known;
  const found =
    kind === 'market'
      ? await partnerOfEvent(id, db)
      : kind === 'sell'
        ? await partnerOfTicket(id, db)
        : ((await sellerListing(id, null, db))?.partnerId ?? null);
  if (found) partnerOfId.set(key, found);
  return found;
}

/** The partner's id the address (path and query, as the proxy hands it on) names, unchecked, or null. */
export async function partnerIdNamedBy(address: string | null | undefined, db: Db): Promise<string | null> {
  if (!address || address.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(address, 'http://encore.invalid');
  } catch {
    return null;
  }
  if (BY_QUERY.has(url.pathname)) return url.searchParams.get('partner') || null;
  const match = NAMED.exec(url.pathname);
  return match ? partnerIdOf(match[1], match[2], db) : null;
}

/** A live partner's brand (name and logo) by id, or null when unknown or disabled. */
async function liveBrandOf(partnerId: string | null | undefined, db: Db): Promise<BrandPartner | null> {
  if (!partnerId || partnerId.length > 100) return null;
  const kept = brands.get(partnerId);
  if (kept && Date.now() - kept.at < BRAND_TTL_MS) return kept.brand;
  const partner = await getPartner(partnerId, db).catch(() => null);
  const brand =
    !partner || partner.disabledAt ? null : { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  // Only known partners are kept: an unknown id (anyone can type one) must not fill the memo.
  if (partner) brands.set(partnerId, { at: Date.now(), brand });
  return brand;
}

/**
 * The brand a fan page with no partner of its own wears: the partner the address names, else the one the
 * fan last signed in with (a cookie the caller reads), else none.
 */
export async function fanBrandOf(
  address: string | null | undefined,
  lastPartnerId: string | null | undefined,
  db: Db,
): Promise<BrandPartner | null> {
  const named = await liveBrandOf(await partnerIdNamedBy(address, db), db);
  return named ?? (await liveBrandOf(lastPartnerId, db));
}
