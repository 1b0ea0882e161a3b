import { getLocale } from 'next-intl/server';
import { ClientMessages } from '@/components/market/client-messages';
import './market.css';

/**
 * Every fan page: translated (the proxy chose the locale; the root layout declares it on <html>, and
 * `lang` here keeps the shell's own element saying so too). The browser gets the messages of the client
 * components every page has; checkout, sell and listing pages add their forms' in their own layouts.
 */
export default async function MarketLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  return (
    <div lang={locale} className="mk">
      <ClientMessages>{children}</ClientMessages>
    </div>
  );
}
