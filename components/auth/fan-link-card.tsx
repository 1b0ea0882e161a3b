import type { ReactNode } from 'react';
import { getLocale, getTranslations } from 'next-intl/server';
import Link from '@/components/ui/link';
import { DEFAULT_FAN_PATH } from '@/server/modules/fans';

/**
 * The fan's pages about a one-time link that did not sign them in (expired, too many tried): one card in
 * the fan's language and the brand of the partner `known` (else Encore's), the page's title and lead (from
 * its `messages`), what to do (`children`) and, when the link was going somewhere else than the fan's
 * default page, a way on to it.
 */
export async function FanLinkCard({
  messages,
  known,
  next,
  children,
}: {
  messages: 'expired' | 'tooManyLinks';
  known: { name: string } | null;
  next: string;
  children: ReactNode;
}) {
  const [t, locale] = await Promise.all([getTranslations(messages), getLocale()]);
  return (
    <main className="auth-page" lang={locale}>
      <div className="auth-card">
        <p className="brand auth-brand" data-testid="partner-brand">
          {known ? `${known.name} · Encore` : 'Encore'}
        </p>
        <h1 className="auth-title">{t('title')}</h1>
        <p className="auth-lead">{t('lead')}</p>
        {children}
        {next !== DEFAULT_FAN_PATH ? (
          <p>
            <Link href={next}>{t('continue')}</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
