import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { LOCALE_HEADER } from '@/server/lib/i18n';
import './globals.css';

/**
 * Fan pages (the proxy set the fan's language) describe the resale in that language, so a search result
 * or a shared link's preview of a Spanish page reads Spanish; every other page says what Encore is.
 */
export async function generateMetadata(): Promise<Metadata> {
  const title = { default: 'Encore', template: '%s · Encore' };
  if (!(await headers()).has(LOCALE_HEADER)) {
    return { title, description: 'Encore connects primary ticketing platforms with a resale market.' };
  }
  const t = await getTranslations('common');
  return { title, description: t('metaDescription') };
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of that response's Content Security
  // Policy (proxy.ts), which a page built ahead of time could not know.
  await connection();
  // The proxy sets the locale header on fan pages only (and strips a caller's elsewhere): those declare
  // the fan's language, so screen readers and translation tools read Spanish as Spanish. The dashboard,
  // docs and staff pages are English whatever DEFAULT_LANG says.
  const lang = (await headers()).has(LOCALE_HEADER) ? await getLocale() : 'en';
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
