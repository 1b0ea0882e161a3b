import { cookies } from 'next/headers';
import { getLocale } from 'next-intl/server';
import { isLocale, type Locale, LOCALE_COOKIE, LOCALE_COOKIE_OPTIONS } from '@/server/lib/i18n';

/**
 * The language of the fan page a form posted to (the proxy chose it: URL `lang`, cookie, browser, the event's
 * country), to record with what the form makes (listing, buy intention, lead): the fan's mails about it are in it.
 */
export async function pageLocale(): Promise<Locale | undefined> {
  const locale = await getLocale();
  return isLocale(locale) ? locale : undefined;
}

/**
 * `pageLocale`, for a form that sends the fan on to pages about no event (checkout, payment, their listing):
 * a fan who remembers no language yet is given this one, so those pages speak the event page's language
 * (one chosen by the event's country is otherwise known on its own pages only).
 */
export async function carriedPageLocale(): Promise<Locale | undefined> {
  const locale = await pageLocale();
  const jar = await cookies();
  if (locale && !jar.has(LOCALE_COOKIE)) jar.set(LOCALE_COOKIE, locale, LOCALE_COOKIE_OPTIONS);
  return locale;
}
