'use server';

import { cookies, headers } from 'next/headers';
import { getLocale } from 'next-intl/server';
import { getDb } from '@/db';
import { clientAddressOf } from '@/server/http/client-address';
import { LAST_PARTNER_COOKIE, requestSignInLink } from '@/server/modules/fans';
import { assertForm } from '@/server/http/form-argument';

export type SignInLinkState =
  | { status: 'idle' }
  | { status: 'sent'; email: string; minutes: number }
  | { status: 'error'; error: 'invalidEmail' | 'unavailable'; email: string }
  | { status: 'error'; error: 'tooMany'; email: string; retryMinutes: number };

/** The sign-in form's action: asks the fans module for a link by e-mail (the page stays thin). */
export async function sendSignInLink(_prev: SignInLinkState, form: FormData): Promise<SignInLinkState> {
  assertForm(form);
  const email = String(form.get('email') ?? '').slice(0, 300);
  const partnerId = String(form.get('partner') ?? '');
  const result = await requestSignInLink(
    {
      partnerId,
      email,
      next: String(form.get('next') ?? ''),
      locale: await getLocale(),
      ip: clientAddressOf(await headers()),
    },
    getDb(),
  );
  if (result.ok) {
    // The fan chose this partner: pages with none of their own (/me, not-found) offer its sign-in from now on.
    (await cookies()).set(LAST_PARTNER_COOKIE, partnerId, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 365 * 86_400,
    });
    return { status: 'sent', email: result.email, minutes: result.minutes };
  }
  if (result.error === 'tooMany') {
    return { status: 'error', error: 'tooMany', email, retryMinutes: Math.ceil(result.retryAfterSeconds / 60) };
  }
  return { status: 'error', error: result.error, email };
}
