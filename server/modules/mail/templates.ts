import { type Locale, translator } from '@/server/lib/i18n';
import {
  type BuyerPromiseFacts,
  deliveryText,
  guaranteeTexts,
  type PayoutDue,
  payoutDateText,
} from '@/server/lib/promises';

/*
 * The mails Encore sends, rendered from the `mail` messages of the fan's language: a subject, a plain
 * text body and a simple HTML body (one column, real headings and links, every value escaped). Callers
 * pass plain data: money already formatted (formatMoney), dates already formatted (formatShowDate).
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

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What a mail says, in order: paragraphs, a sub-heading, a bulleted list, one main button, a list of links. */
type Block =
  | { p: string; muted?: boolean }
  | { h: string }
  | { items: string[] }
  | { action: string; url: string }
  | { links: { label: string; url: string }[] };

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(locale: Locale, partner: string, subject: string, heading: string, blocks: Block[]): RenderedMail {
  const t = translator(locale, 'mail');
  const footer = t('footer', { partner });
  const signature = t('signature', { partner });
  const text: string[] = [heading, ''];
  const html: string[] = [];
  for (const b of blocks) {
    if ('p' in b) {
      text.push(b.p, '');
      html.push(`<p style="margin:0 0 16px;${b.muted ? 'color:#4b5563;font-size:14px;' : ''}">${escapeHtml(b.p)}</p>`);
    } else if ('h' in b) {
      text.push(b.h, '');
      html.push(`<h2 style="margin:24px 0 8px;font-size:17px;line-height:1.3;">${escapeHtml(b.h)}</h2>`);
    } else if ('items' in b) {
      for (const item of b.items) text.push(`- ${item}`);
      text.push('');
      html.push(
        `<ul style="margin:0 0 16px;padding-left:20px;">${b.items.map((i) => `<li style="margin:0 0 8px;">${escapeHtml(i)}</li>`).join('')}</ul>`,
      );
    } else if ('action' in b) {
      text.push(`${b.action}: ${b.url}`, '');
      html.push(
        `<p style="margin:24px 0;"><a href="${escapeHtml(b.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600;">${escapeHtml(b.action)}</a></p>`,
        `<p style="margin:0 0 16px;color:#4b5563;font-size:14px;">${escapeHtml(t('linkHint'))}<br><a href="${escapeHtml(b.url)}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(b.url)}</a></p>`,
      );
    } else {
      for (const l of b.links) text.push(`${l.label}: ${l.url}`);
      text.push('');
      html.push(
        `<ul style="margin:0 0 16px;padding-left:20px;">${b.links
          .map(
            (l) =>
              `<li style="margin:0 0 8px;"><a href="${escapeHtml(l.url)}" style="color:#1d4ed8;">${escapeHtml(l.label)}</a></li>`,
          )
          .join('')}</ul>`,
      );
    }
  }
  text.push(signature, '', '--', footer);
  const body = [
    '<!doctype html>',
    `<html lang="${locale}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111827;line-height:1.5;">',
    '<div role="article" aria-roledescription="email" style="max-width:560px;margin:0 auto;padding:24px 16px;">',
    `<div style="background:#ffffff;border-radius:8px;padding:24px;">`,
    `<p style="margin:0 0 8px;font-weight:600;color:#374151;">${escapeHtml(partner)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">${escapeHtml(heading)}</h1>`,
    ...html,
    `<p style="margin:24px 0 0;">${escapeHtml(signature)}</p>`,
    '</div>',
    `<p style="margin:16px 0 0;color:#4b5563;font-size:12px;">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject, text: text.join('\n'), html: body };
}

/** Renders one mail of `kind` in `locale` from its data. */
export function renderMail<K extends MailKind>(kind: K, locale: Locale, data: MailData[K]): RenderedMail {
  const t = translator(locale, 'mail');
  /** The ticket links of a purchase or a delivery, then the reminder to keep them private (none: nothing). */
  const ticketLinks = (
    key: 'purchaseConfirmation' | 'ticketsDelivered',
    urls: string[],
    promises: BuyerPromiseFacts,
  ): Block[] =>
    urls.length
      ? [
          { p: deliveryText(locale, promises) },
          { p: t(`${key}.tickets`, { count: urls.length }) },
          urls.length === 1
            ? { action: t(`${key}.ticket`, { number: 1 }), url: urls[0] }
            : { links: urls.map((url, i) => ({ label: t(`${key}.ticket`, { number: i + 1 }), url })) },
          { p: t(`${key}.private`), muted: true },
        ]
      : [];
  /** The guarantee block (guarantee-block.tsx on the pages says the same, from the same facts). */
  const guarantee = (promises: BuyerPromiseFacts): Block[] => {
    const g = guaranteeTexts(locale, promises);
    const help = [
      ...(g.support.url ? [{ label: g.support.url.label, url: g.support.url.href }] : []),
      ...(g.support.email ? [{ label: g.support.email.label, url: g.support.email.href }] : []),
    ];
    return [
      { h: g.title },
      { items: g.items },
      { links: [{ label: g.terms.label, url: g.terms.url }] },
      { p: g.support.lead, muted: true },
      { links: help },
    ];
  };
  const d = data as MailData[MailKind];
  const partner = d.partnerName;
  switch (kind) {
    case 'signInLink': {
      const m = d as MailData['signInLink'];
      return layout(locale, partner, t('signInLink.subject', { partner }), t('signInLink.heading', { partner }), [
        { p: t('signInLink.body', { partner, minutes: m.minutes }) },
        { action: t('signInLink.action'), url: m.url },
        { p: t('signInLink.ignore'), muted: true },
      ]);
    }
    case 'listingCreated': {
      const m = d as MailData['listingCreated'];
      return layout(
        locale,
        partner,
        t('listingCreated.subject', { event: m.eventTitle }),
        t('listingCreated.heading'),
        [
          { p: t('listingCreated.body', { event: m.eventTitle, date: m.showDate, price: m.price }) },
          { p: t('listingCreated.payout', { payout: m.payout }) },
          { p: payoutDateText(locale, m.payoutDue, 'ifSold') },
          { action: t('listingCreated.action'), url: m.listingUrl },
        ],
      );
    }
    case 'ticketSold': {
      const m = d as MailData['ticketSold'];
      return layout(locale, partner, t('ticketSold.subject', { event: m.eventTitle }), t('ticketSold.heading'), [
        { p: t('ticketSold.body', { event: m.eventTitle, date: m.showDate }) },
        { p: t('ticketSold.payout', { payout: m.payout }) },
        { p: payoutDateText(locale, m.payoutDue) },
        { p: t('ticketSold.noAction'), muted: true },
      ]);
    }
    case 'purchaseConfirmation': {
      const m = d as MailData['purchaseConfirmation'];
      return layout(
        locale,
        partner,
        t('purchaseConfirmation.subject', { event: m.eventTitle }),
        t('purchaseConfirmation.heading'),
        [
          { p: t('purchaseConfirmation.body', { total: m.total, event: m.eventTitle, date: m.showDate }) },
          ...ticketLinks('purchaseConfirmation', m.secureViewUrls, m.promises),
          ...(m.awaitingDelivery ? [{ p: t('purchaseConfirmation.awaiting', { count: m.awaitingDelivery }) }] : []),
          ...guarantee(m.promises),
        ],
      );
    }
    case 'ticketsDelivered': {
      const m = d as MailData['ticketsDelivered'];
      return layout(
        locale,
        partner,
        t('ticketsDelivered.subject', { event: m.eventTitle }),
        t('ticketsDelivered.heading'),
        [
          { p: t('ticketsDelivered.body', { event: m.eventTitle, date: m.showDate }) },
          ...ticketLinks('ticketsDelivered', m.secureViewUrls, m.promises),
        ],
      );
    }
    case 'listingCancelled': {
      const m = d as MailData['listingCancelled'];
      return layout(
        locale,
        partner,
        t('listingCancelled.subject', { event: m.eventTitle }),
        t('listingCancelled.heading'),
        [{ p: t('listingCancelled.body', { event: m.eventTitle }) }, { p: t(`listingCancelled.reasons.${m.reason}`) }],
      );
    }
    case 'wishlistAvailable': {
      const m = d as MailData['wishlistAvailable'];
      return layout(
        locale,
        partner,
        t('wishlistAvailable.subject', { event: m.eventTitle }),
        t('wishlistAvailable.heading'),
        [
          { p: t('wishlistAvailable.body', { event: m.eventTitle, date: m.showDate, price: m.price }) },
          { action: t('wishlistAvailable.action'), url: m.buyUrl },
          { p: t('wishlistAvailable.why', { partner }), muted: true },
          { links: [{ label: t('wishlistAvailable.unsubscribe'), url: m.unsubscribeUrl }] },
        ],
      );
    }
    case 'purchaseRefunded': {
      const m = d as MailData['purchaseRefunded'];
      return layout(
        locale,
        partner,
        t('purchaseRefunded.subject', { event: m.eventTitle }),
        t('purchaseRefunded.heading'),
        [
          { p: t(`purchaseRefunded.reasons.${m.reason}`) },
          { p: t('purchaseRefunded.body', { amount: m.amount, event: m.eventTitle }) },
        ],
      );
    }
    case 'payoutCancelled': {
      const m = d as MailData['payoutCancelled'];
      return layout(
        locale,
        partner,
        t('payoutCancelled.subject', { event: m.eventTitle }),
        t('payoutCancelled.heading'),
        [
          { p: t(`payoutCancelled.reasons.${m.reason}`, { event: m.eventTitle, date: m.showDate }) },
          { p: t('payoutCancelled.body', { amount: m.amount }) },
          { p: t('payoutCancelled.noAction'), muted: true },
        ],
      );
    }
    default:
      throw new Error(`Unknown mail kind ${String(kind)}`);
  }
}
