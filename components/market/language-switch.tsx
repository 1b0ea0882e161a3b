'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect } from 'react';
import { LOCALE_COOKIE, LOCALE_COOKIE_OPTIONS, LOCALE_NAMES, supportedLocale } from '@/server/lib/i18n/locale-codes';

/**
 * Links to the same page in each language (each in its own words), behind the current language's name.
 * The choice is remembered in a cookie: by the proxy on a page for one fan, and here on a shared buy page,
 * which carries no cookie since every fan asking for its address gets the same bytes.
 */
export function LanguageSwitch() {
  const locale = useLocale();
  const t = useTranslations('common');
  const path = usePathname();
  const query = useSearchParams();
  useEffect(() => {
    const lang = supportedLocale(new URLSearchParams(window.location.search).get('lang'));
    if (lang && !document.cookie.split('; ').includes(`${LOCALE_COOKIE}=${lang}`)) {
      const { path, maxAge, sameSite } = LOCALE_COOKIE_OPTIONS;
      document.cookie = `${LOCALE_COOKIE}=${lang}; path=${path}; max-age=${maxAge}; samesite=${sameSite}`;
    }
  }, []);
  return (
    // Seven names do not fit beside the partner's on a phone: the current one, opening onto all of them
    // (a disclosure, so it works before any script and from the keyboard).
    <details className="mk-lang" data-testid="language-switch">
      <summary>
        <span className="sr-only">{t('language')}: </span>
        <span lang={locale}>{LOCALE_NAMES[locale]}</span>
      </summary>
      <nav aria-label={t('language')}>
        <ul>
          {Object.entries(LOCALE_NAMES).map(([code, name]) => {
            const params = new URLSearchParams(query.toString());
            params.set('lang', code);
            return (
              <li key={code}>
                {/* A shared page is made from its canonical address (the parameters it reads, in one order),
                    which can differ from the fan's own: the address made on the server stands. */}
                <a
                  href={`${path}?${params.toString()}`}
                  lang={code}
                  hrefLang={code}
                  aria-current={code === locale ? 'true' : undefined}
                  suppressHydrationWarning
                >
                  {name}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </details>
  );
}
