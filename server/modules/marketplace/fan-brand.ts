import type { Db } from '@/db';
import { partnerOfEvent } from '@/server/modules/catalog';
import { getPartner } from '@/server/modules/partners';
import { partnerOfTicket } from '@/server/modules/tickets';
import { sellerListing } from './sell';

/*
 * Whose brand a page that could not be found wears (issue 31, finding 7). A not-found page is handed only
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

async function partnerIdOf(kind: string, id: string, db: Db): Promise<string | null> {
  if (kind === 'resale') return id;
  if (kind === 'market') return partnerOfEvent(id, db);
  if (kind === 'sell') return partnerOfTicket(id, db);
  return (await sellerListing(id, null, db))?.partnerId ?? null;
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
  const partner = await getPartner(partnerId, db).catch(() => null);
  if (!partner || partner.disabledAt) return null;
  return { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
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
