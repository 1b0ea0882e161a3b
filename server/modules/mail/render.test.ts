import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/server/lib/i18n';
import { allMessages } from '@/server/lib/i18n/messages';
import type { BuyerPromiseFacts } from '@/server/lib/promises';
import { renderMail } from './render';
import type { MailData, MailKind } from './templates';

/*
 * Every mail in every language Encore speaks: each renders, its subject and body are that language's
 * (`mail.<kind>.subject`), and nothing English is left in a mail of another language.
 */

const promises: BuyerPromiseFacts = {
  partnerName: 'Teatro Norte',
  reissue: true,
  codeFrom: new Date('2027-06-12T16:30:00Z'),
  timeZone: 'Europe/Madrid',
  verifiedLive: true,
  support: { url: null, email: null },
  encoreSupportEmail: 'support@encore.test',
  termsUrl: 'https://encore.test/terms',
  sources: { fans: true, channels: true },
};
const base = { partnerName: 'Teatro Norte', eventTitle: 'Noche', showDate: '12/06/2027 21:30' };
const payoutDue = { dueAt: new Date('2027-06-14T10:00:00Z'), delayDays: 2, timeZone: 'Europe/Madrid' };
const SAMPLES: { [K in MailKind]: MailData[K] } = {
  signInLink: { partnerName: 'Teatro Norte', url: 'https://encore.test/auth/redeem?token=x', minutes: 15 },
  listingCreated: { ...base, price: '45 €', payout: '40 €', listingUrl: 'https://encore.test/listing/l', payoutDue },
  ticketSold: { ...base, payout: '40 €', payoutDue },
  purchaseConfirmation: {
    ...base,
    total: '90 €',
    secureViewUrls: ['https://encore.test/t/a', 'https://encore.test/t/b'],
    awaitingDelivery: 2,
    promises,
  },
  ticketsDelivered: { ...base, secureViewUrls: ['https://encore.test/t/a'], promises },
  listingCancelled: { partnerName: 'Teatro Norte', eventTitle: 'Noche', reason: 'protectionOff' },
  purchaseRefunded: { partnerName: 'Teatro Norte', eventTitle: 'Noche', amount: '90 €', reason: 'notDelivered' },
  payoutCancelled: { ...base, amount: '40 €', reason: 'showCancelled' },
  wishlistAvailable: {
    ...base,
    price: '45 €',
    buyUrl: 'https://encore.test/market/e',
    unsubscribeUrl: 'https://encore.test/unsubscribe/u',
  },
};

const mailMessages = (locale: string) =>
  (allMessages as Record<string, { mail: Record<string, unknown> }>)[locale].mail as Record<
    string,
    Record<string, string>
  >;

describe('mails in every language', () => {
  it.each(LOCALES)('renders every kind of mail in %s, in its own words', async (locale) => {
    for (const kind of Object.keys(SAMPLES) as MailKind[]) {
      const mail = await renderMail(kind, locale, SAMPLES[kind] as never);
      const heading = mailMessages(locale)[kind].heading;
      expect(mail.subject, `${locale} ${kind}`).toContain(kind === 'signInLink' ? 'Teatro Norte' : 'Noche');
      expect(mail.text, `${locale} ${kind}`).toContain(heading.replace(/\{partner\}/, 'Teatro Norte'));
      expect(mail.html, `${locale} ${kind}`).toMatch(new RegExp(`<html[^>]* lang="${locale}"`));
      if (locale !== 'en') {
        expect(mail.text, `${locale} ${kind}: its footer`).not.toContain('You receive this e-mail');
        expect(mail.text, `${locale} ${kind}: no English heading`).not.toContain(mailMessages('en')[kind].heading);
      }
    }
  });
});
