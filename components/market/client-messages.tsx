import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages } from 'next-intl/server';

/**
 * The messages the browser gets: only the namespaces of the client components under this provider
 * (all of them would put 37 KB of messages in every fan page's payload, in both languages' pages, for the
 * handful its forms use). Every fan page has these (the language switch, the error page, the
 * wish-list and sign-in forms); a segment whose forms need more names them in its own layout.
 */
const EVERY_PAGE = ['common', 'wishlist', 'fanSignin'] as const;

type Namespace = 'checkout' | 'sell' | 'listing';

export async function ClientMessages({
  namespaces = [],
  children,
}: {
  namespaces?: readonly Namespace[];
  children: React.ReactNode;
}) {
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  const picked = Object.fromEntries([...EVERY_PAGE, ...namespaces].map((n) => [n, messages[n]]));
  return (
    <NextIntlClientProvider locale={locale} messages={picked}>
      {children}
    </NextIntlClientProvider>
  );
}
