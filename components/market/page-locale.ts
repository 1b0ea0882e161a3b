import { getLocale } from 'next-intl/server';
import { isLocale, type Locale } from '@/server/lib/i18n';

/**
 * The language of the fan page a form posted to (the proxy chose it: URL `lang`, cookie, browser), to
 * record with what the form makes (listing, buy intention, lead): the fan's mails about it are in it.
 */
export async function pageLocale(): Promise<Locale | undefined> {
  const locale = await getLocale();
  return isLocale(locale) ? locale : undefined;
}
