import type en from './messages/en.json';
import type { Locale } from './locales';

// Typed keys for next-intl everywhere (useTranslations, getTranslations): a missing key fails `tsc`.
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
