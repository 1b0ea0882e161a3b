import { cookies, headers } from 'next/headers';
import { getDb } from '@/db';
import { FAN_ADDRESS_HEADER, LAST_PARTNER_COOKIE } from '@/server/modules/fans';
import { type BrandPartner, fanBrandOf } from '@/server/modules/fan-pages';

/**
 * The brand of a fan page that has no partner of its own (a not-found page, /me signed out): the partner
 * the address names, else the one the fan last signed in with, else none (Encore's own look).
 */
export async function brandOfRequest(): Promise<BrandPartner | null> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  return fanBrandOf(h.get(FAN_ADDRESS_HEADER), c.get(LAST_PARTNER_COOKIE)?.value, getDb());
}

/**
 * The brand of the fan page at `path` (where a link was going), else of the partner the fan last signed
 * in with, else none.
 */
export async function brandOfPath(path: string): Promise<BrandPartner | null> {
  const c = await cookies();
  return fanBrandOf(path, c.get(LAST_PARTNER_COOKIE)?.value, getDb());
}
