import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages } from 'next-intl/server';
import './market.css';

/**
 * Every fan page: translated (the proxy chose the locale; `lang` marks the content's language for
 * screen readers since the root <html> is shared with the English-only dashboard).
 */
export default async function MarketLayout({ children }: { children: React.ReactNode }) {
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  return (
    <div lang={locale} className="mk">
      <NextIntlClientProvider locale={locale} messages={messages}>
        {children}
      </NextIntlClientProvider>
    </div>
  );
}
