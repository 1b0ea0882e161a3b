import type { ReactElement } from 'react';
import type { Locale, translator } from '@/server/lib/i18n';
import type { BuyerPromiseFacts, PayoutDue } from '@/server/lib/promises';

/*
 * What each mail is given: plain data, money already formatted (formatMoney), dates already formatted
 * (formatShowDate). One component per kind (./<kind>.tsx) turns it into the mail.
 */

export interface MailData {
  signInLink: { partnerName: string; url: string; minutes: number };
  listingCreated: {
    partnerName: string;
    eventTitle: string;
    showDate: string;
    price: string;
    payout: string;
    listingUrl: string;
    /** When the seller would be paid if it sells now (show start plus the partner's payout delay). */
    payoutDue: PayoutDue;
  };
  ticketSold: { partnerName: string; eventTitle: string; showDate: string; payout: string; payoutDue: PayoutDue };
  purchaseConfirmation: {
    partnerName: string;
    eventTitle: string;
    showDate: string;
    total: string;
    secureViewUrls: string[];
    /** Tickets bought from a channel, whose links come once it hands them over. */
    awaitingDelivery?: number;
    /** What the buyer is promised (reissue or transfer, unlock time, guarantee, support), from the settings. */
    promises: BuyerPromiseFacts;
  };
  ticketsDelivered: {
    partnerName: string;
    eventTitle: string;
    showDate: string;
    secureViewUrls: string[];
    promises: BuyerPromiseFacts;
  };
  listingCancelled: {
    partnerName: string;
    eventTitle: string;
    reason: 'showCancelled' | 'ticketInvalidated' | 'ownershipLost' | 'protectionOff' | 'other';
  };
  purchaseRefunded: {
    partnerName: string;
    eventTitle: string;
    amount: string;
    reason: 'showCancelled' | 'notAvailable' | 'notDelivered' | 'staff' | 'other';
  };
  /** To a seller whose scheduled payout was cancelled because the purchase was refunded. */
  payoutCancelled: {
    partnerName: string;
    eventTitle: string;
    showDate: string;
    amount: string;
    reason: 'showCancelled' | 'staff';
  };
  wishlistAvailable: {
    partnerName: string;
    eventTitle: string;
    showDate: string;
    price: string;
    buyUrl: string;
    unsubscribeUrl: string;
  };
}

export type MailKind = keyof MailData;

/** The `mail` messages of one language. */
export type MailT = ReturnType<typeof translator<'mail'>>;

export interface MailProps<K extends MailKind> {
  locale: Locale;
  t: MailT;
  subject: string;
  data: MailData[K];
}

/** One kind of mail: its subject line and its body. */
export interface MailTemplate<K extends MailKind> {
  subject: (t: MailT, data: MailData[K]) => string;
  Mail: (props: MailProps<K>) => ReactElement;
}
