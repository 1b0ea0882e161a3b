'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { carriedPageLocale, pageLocale } from '@/components/market/page-locale';
import { fanOf } from '@/components/market/session';
import { rememberOrder } from '@/components/market/order-access';
import { safeReturnTo } from '@/components/market/return-to';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { joinWishlist } from '@/server/modules/market-data';
import { createBuyIntention } from '@/server/modules/marketplace';
import { buyerCheckout } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { assertForm } from '@/server/http/form-argument';

export interface WishlistState {
  saved?: string;
  error?: 'invalidEmail' | 'failed';
}

/** The empty market's "notify me": a WISHLIST lead for the show. */
export async function wishlistAction(_: WishlistState, form: FormData): Promise<WishlistState> {
  assertForm(form);
  const result = await joinWishlist(
    {
      eventPk: String(form.get('eventId') ?? ''),
      showPk: String(form.get('showId') ?? ''),
      email: String(form.get('email') ?? ''),
      locale: await pageLocale(),
    },
    getDb(),
  );
  if (result.ok) return { saved: result.email };
  return { error: result.reason === 'invalid' ? 'invalidEmail' : 'failed' };
}

export interface PayState {
  error?: 'invalidEmail' | 'taken' | 'ownListing' | 'unavailable' | 'failed';
  email?: string;
}

const email = z.email().max(254);

/**
 * "Pay": holds the listings for the fan (the buy intention) and sends them to the payment page. The
 * signed-in fan buys as themself; anyone else gives the e-mail the tickets go to.
 */
export async function payAction(_: PayState, form: FormData): Promise<PayState> {
  assertForm(form);
  const ids = String(form.get('listings') ?? '')
    .split(',')
    .filter(Boolean);
  const typed = String(form.get('email') ?? '').trim();
  const checkout = await buyerCheckout(ids, getDb());
  if (!checkout || !checkout.available) return { error: 'unavailable', email: typed };
  const fan = await fanOf(checkout.event.partnerId);
  const buyer = fan?.email ?? typed;
  if (!email.safeParse(buyer).success) return { error: 'invalidEmail', email: typed };
  const returnTo = safeReturnTo(
    String(form.get('returnTo') ?? ''),
    await getPartner(checkout.event.partnerId, getDb()),
  );
  let paymentUrl: string;
  try {
    const intention = await createBuyIntention(
      checkout.event.partnerId,
      {
        items: checkout.listings.map((l) => l.id),
        user: buyer,
        pageQuery: returnTo ? new URLSearchParams({ returnTo }).toString() : undefined,
        // The fan's language: their mails and Stripe Checkout's lines are written in it.
        locale: await carriedPageLocale(),
      },
      getDb(),
    );
    paymentUrl = intention.paymentUrl;
    // This browser made the order: its pages show it the buyer's e-mail and tickets (order-access.ts).
    await rememberOrder(intention.id);
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT') {
      return { error: /seller cannot buy/i.test(err.message) ? 'ownListing' : 'taken', email: typed };
    }
    if (err instanceof AppError) return { error: 'unavailable', email: typed };
    throw err;
  }
  redirect(paymentUrl);
}
