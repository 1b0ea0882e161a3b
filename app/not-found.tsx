import { headers } from 'next/headers';
import Link from '@/components/ui/link';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages } from 'next-intl/server';
import MarketNotFound from './(market)/not-found';
import { LOCALE_HEADER } from '@/server/lib/i18n';
import './(market)/market.css';

/**
 * Any address no page answers. Where the proxy counts it a fan page (it chose the fan's language), the
 * fan pages' own not-found, translated and branded, with the way on; under the staff and API prefixes
 * (/dashboard, /docs, …: no fan language) an English Encore page.
 */
export default async function NotFound() {
  if ((await headers()).has(LOCALE_HEADER)) {
    const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
    return (
      <div lang={locale} className="mk">
        {/* Next.js renders a not-found page into every page's payload (it is the fallback of the root
            boundary): the client gets only the one namespace its client parts read (the language switch). */}
        <NextIntlClientProvider locale={locale} messages={{ common: messages.common }}>
          <MarketNotFound />
        </NextIntlClientProvider>
      </div>
    );
  }
  return (
    <main className="landing" data-testid="not-found" lang="en">
      <p>Encore</p>
      <h1>We can&apos;t find that page</h1>
      <p>The address may be old or mistyped, or what it pointed to is no longer available.</p>
      <Link href="/">Go to Encore</Link>
    </main>
  );
}
