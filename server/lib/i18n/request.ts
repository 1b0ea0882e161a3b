import { headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { defaultLocale, isLocale, LOCALE_HEADER } from './locales';
import { messagesFor } from './messages';

/**
 * next-intl's request configuration (wired in next.config.ts). Fan pages get their locale from the
 * header the proxy sets after resolving `lang`, cookie and Accept-Language; anything else gets the default.
 */
export default getRequestConfig(async ({ requestLocale }) => {
  const requested = (await requestLocale) ?? (await headers()).get(LOCALE_HEADER);
  const locale = isLocale(requested) ? requested : defaultLocale();
  return { locale, messages: messagesFor(locale), timeZone: 'UTC' };
});
