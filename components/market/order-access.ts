import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookies } from 'next/headers';
import { fanOf } from '@/components/market/session';
import { publicBaseUrl } from '@/server/env';
import { appSecret } from '@/server/lib/app-secret';

/*
 * Who may see an order's personal side (the buyer's e-mail, the secure-ticket links) on its pages
 * (`/checkout/<intention>`, `/pay/<payment>`): the buyer's own fan session (signed in at this partner with the
 * order's e-mail), or the browser that made or paid the order, which this cookie names. Anyone else holding
 * the address sees the order's status and what was bought, and nothing personal: the tickets reach the buyer
 * by mail (its links are the secure views) and on their signed-in pages.
 *
 * The cookie holds the browser's last orders (intention ids), signed with a secret of the deployment, so a
 * browser cannot name an order it did not make. It is sent only to the order pages (its paths), never to the
 * buy page: a shared cache in front treats any cookie but the language as a person's.
 */

const ORDER_COOKIE = 'encore_orders';
const ORDER_PATHS = ['/checkout', '/pay'];
const KEEP = 10;
const MAX_AGE_S = 30 * 86_400;
const ID = /^[A-Za-z0-9_]{1,64}$/;

async function signature(ids: string): Promise<string> {
  return createHmac('sha256', await appSecret('order-cookie'))
    .update(ids)
    .digest('base64url')
    .slice(0, 32);
}

/** The orders a cookie value names, when its signature holds (else none). */
async function ordersOf(value: string | undefined): Promise<string[]> {
  const at = value?.lastIndexOf('.') ?? -1;
  if (!value || at < 1) return [];
  const ids = value.slice(0, at);
  const given = Buffer.from(value.slice(at + 1));
  const wanted = Buffer.from(await signature(ids));
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return [];
  return ids.split('-').filter((id) => ID.test(id));
}

/** The cookie's next value with this order first (the `Set-Cookie` of a route handler, or cookies().set). */
async function nextValue(current: string | undefined, intentionId: string): Promise<string> {
  const ids = [intentionId, ...(await ordersOf(current)).filter((id) => id !== intentionId)].slice(0, KEEP).join('-');
  return `${ids}.${await signature(ids)}`;
}

const secure = () => publicBaseUrl().startsWith('https:');

/** Remembers that this browser made the order (a server action: the checkout's Pay). */
export async function rememberOrder(intentionId: string): Promise<void> {
  if (!ID.test(intentionId)) return;
  const jar = await cookies();
  const value = await nextValue(jar.get(ORDER_COOKIE)?.value, intentionId);
  for (const path of ORDER_PATHS) {
    jar.set(ORDER_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: secure(), path, maxAge: MAX_AGE_S });
  }
}

/** The same for a route handler's answer (the payment form's POST): the `Set-Cookie` headers to add. */
export async function orderCookieHeaders(cookieHeader: string | null, intentionId: string): Promise<string[]> {
  if (!ID.test(intentionId)) return [];
  // Only [A-Za-z0-9_.-] in a value this file writes: nothing to decode.
  const current = /(?:^|;\s*)encore_orders=([^;]*)/.exec(cookieHeader ?? '')?.[1];
  const value = await nextValue(current, intentionId);
  const flags = `HttpOnly; SameSite=Lax; Max-Age=${MAX_AGE_S}${secure() ? '; Secure' : ''}`;
  return ORDER_PATHS.map((path) => `${ORDER_COOKIE}=${value}; Path=${path}; ${flags}`);
}

/** Whether this request is the order's buyer: their fan session at the partner, or the browser that made it. */
export async function isOrderBuyer(order: {
  intentionId: string;
  partnerId: string;
  buyerEmail: string;
}): Promise<boolean> {
  const fan = await fanOf(order.partnerId);
  if (fan && fan.email.toLowerCase() === order.buyerEmail.toLowerCase()) return true;
  return (await ordersOf((await cookies()).get(ORDER_COOKIE)?.value)).includes(order.intentionId);
}

/** An e-mail as anyone else may see it: its first letter and its domain's, `j•••@e•••.com`. */
export function maskedEmail(email: string): string {
  const [local, domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}•••@${domain.slice(0, 1)}•••${tld}`;
}
