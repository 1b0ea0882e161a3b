import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages } from 'next-intl/server';
import './market.css';

/**
 * Every fan page: translated (the proxy chose the locale; the root layout declares it on <html>, and
 * `lang` here keeps the shell's own element saying so too).
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
