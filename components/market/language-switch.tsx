'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';

const NAMES: Record<string, string> = { en: 'English', es: 'Español' };

/** Links to the same page in each language (the proxy remembers the choice in a cookie). */
export function LanguageSwitch() {
  const locale = useLocale();
  const t = useTranslations('common');
  const path = usePathname();
  const query = useSearchParams();
  return (
    <nav className="mk-lang" aria-label={t('language')}>
      {Object.entries(NAMES).map(([code, name]) => {
        const params = new URLSearchParams(query.toString());
        params.set('lang', code);
        return (
          <a
            key={code}
            href={`${path}?${params.toString()}`}
            lang={code}
            hrefLang={code}
            aria-current={code === locale ? 'true' : undefined}
          >
            {name}
          </a>
        );
      })}
    </nav>
  );
}
