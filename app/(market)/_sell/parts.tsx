import { getTranslations } from 'next-intl/server';
import { getDb } from '@/db';
import { formatDay, formatShowDate, translator } from '@/server/lib/i18n';
import { payoutDateText } from '@/server/lib/promises';
import type { SellShowLabel } from '@/server/modules/catalog';
import { sellerPayoutFacts, type TicketSellStatus } from '@/server/modules/marketplace';
import type { PayoutStatus } from '@/server/modules/payments';
import type { SaleTicket } from '@/server/modules/tickets';
import { setUpPayoutsAction } from './actions';
import { money, pageLocale, reasonText } from './reasons';
import './sell.css';

/** Not signed in (or signed in for another partner): why, and the e-mail sign-in for this partner. */
export async function SignInPrompt({
  partnerId,
  partnerName,
  next,
}: {
  partnerId: string;
  partnerName: string;
  next: string;
}) {
  const t = await getTranslations('sell');
  const href = `/login?partner=${encodeURIComponent(partnerId)}&next=${encodeURIComponent(next)}`;
  return (
    <section className="mk-card mk-empty" data-testid="signin-prompt" aria-labelledby="signin-title">
      <h2 id="signin-title">{t('signInTitle')}</h2>
      <p>{t('signInBody', { partner: partnerName })}</p>
      <a className="mk-btn" href={href}>
        {t('signInAction')}
      </a>
    </section>
  );
}

/** "Section A · Row 3 · Seat 12" from `props.seating`, or null. */
async function seatText(seating: Record<string, unknown> | null): Promise<string | null> {
  if (!seating) return null;
  const t = await getTranslations('sell');
  const parts: string[] = [];
  for (const key of ['section', 'row', 'seat', 'door'] as const) {
    const v = seating[key];
    if (typeof v === 'string' || typeof v === 'number') parts.push(t(`seat.${key}`, { value: String(v) }));
  }
  return parts.length ? parts.join(' · ') : null;
}

/** One line naming a ticket: option and seat. */
export async function ticketName(ticket: SaleTicket, label: SellShowLabel | null): Promise<string> {
  const option = label?.optionTitles[ticket.ticketOptionId] ?? ticket.ticketOptionId;
  const seat = await seatText(ticket.seating);
  return seat ? `${option} · ${seat}` : option;
}

/** The show a ticket is for, dated at the venue. */
export async function ShowHeading({
  label,
  startsAt,
  level = 2,
}: {
  label: SellShowLabel | null;
  startsAt: Date;
  level?: 2 | 3;
}) {
  const locale = await pageLocale();
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <div className="sl-show">
      <H className="sl-show-title">{label?.eventTitle ?? ''}</H>
      <p className="mk-muted">
        {label && label.showTitle !== label.eventTitle ? `${label.showTitle} · ` : ''}
        <time dateTime={startsAt.toISOString()}>{formatShowDate(startsAt, locale, label?.timeZone)}</time>
      </p>
    </div>
  );
}

/**
 * Why a ticket cannot be sold, beside it, every reason in the fan's words: sold; on sale (with the way to
 * its listing); or each check it failed (window, rules, ownership, …). A sold ticket says only that.
 */
async function TicketReasons({ status, partnerName }: { status: TicketSellStatus; partnerName: string }) {
  const t = await getTranslations('sell');
  const { reasons, listing } = status;
  const sold = reasons.find((r) => r.code === 'SOLD');
  const listed = reasons.find((r) => r.code === 'LISTED');
  const shown = sold ? [sold] : reasons;
  if (!shown.length) return null;
  const lines = await Promise.all(
    shown.map(async (r) => {
      if (r.code === 'LISTED') return r.status === 'RESERVED' ? t('reason.RESERVED') : t('reason.LISTED');
      return reasonText(r, partnerName);
    }),
  );
  return (
    <ul className="sl-reasons" data-testid="sell-reasons">
      {shown.map((r, i) => (
        <li key={r.code} data-reason={r.code}>
          {lines[i]}
          {r === listed && listing ? (
            <>
              {' '}
              <a href={`/listing/${listing.id}`} data-testid="reason-listing">
                {t('viewListing')}
              </a>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A ticket of the flow or the entry page: option, seat, face value, and whether (and why not) it can be sold. */
export async function TicketLine({
  status,
  partnerName,
  sellHref,
}: {
  status: TicketSellStatus;
  partnerName: string;
  sellHref?: string;
}) {
  const t = await getTranslations('sell');
  const { ticket, label, reasons, sellable, listing } = status;
  const listed = reasons.some((r) => r.code === 'LISTED');
  const sold = reasons.some((r) => r.code === 'SOLD');
  return (
    <li className="sl-ticket" data-testid="sell-ticket" data-ticket={ticket.ticketId}>
      <div className="sl-ticket-main">
        <p className="sl-ticket-name">{await ticketName(ticket, label)}</p>
        <p className="mk-muted sl-small">
          {t('ticketRef', { id: ticket.ticketId })}
          {ticket.priceMinor !== null
            ? ` · ${t('faceValue', { face: await money(ticket.priceMinor, ticket.currency) })}`
            : ''}
        </p>
        <TicketReasons status={status} partnerName={partnerName} />
      </div>
      <div className="sl-ticket-side">
        {sold ? (
          <span className="mk-badge" data-testid="sell-status">
            {t('status.sold')}
          </span>
        ) : listed && listing ? (
          <span className="mk-badge mk-badge-ok" data-testid="sell-status">
            {listing.status === 'RESERVED' ? t('status.reserved') : t('status.listed')}
          </span>
        ) : sellable ? (
          <>
            <span className="mk-badge mk-badge-ok" data-testid="sell-status">
              {t('status.sellable')}
            </span>
            {sellHref ? (
              <a className="mk-btn sl-sell-btn" href={sellHref}>
                {t('sellAction')}
              </a>
            ) : null}
          </>
        ) : (
          <span className="mk-badge mk-badge-bad" data-testid="sell-status">
            {t('status.notSellable')}
          </span>
        )}
      </div>
    </li>
  );
}

/** Payout set-up when the seller has none yet (sandbox form or Stripe onboarding, via the provider's link). */
export async function PayoutSetup({
  partnerId,
  status,
  returnPath,
}: {
  partnerId: string;
  status: PayoutStatus;
  returnPath: string;
}) {
  if (status === 'active') return null;
  const t = await getTranslations('sell');
  return (
    <section className="mk-card sl-payout-setup" data-testid="payout-setup" aria-labelledby="payout-title">
      <h2 id="payout-title">{status === 'pending' ? t('payoutPendingTitle') : t('payoutTitle')}</h2>
      <p>{t('payoutBody')}</p>
      <form action={setUpPayoutsAction}>
        <input type="hidden" name="partnerId" value={partnerId} />
        <input type="hidden" name="returnPath" value={returnPath} />
        <button type="submit" className="mk-btn mk-btn-secondary">
          {status === 'pending' ? t('payoutContinue') : t('payoutStart')}
        </button>
      </form>
    </section>
  );
}

/**
 * When the seller is paid, from the partner's payout delay and the show: the sale's payout date once
 * sold (paid: the day it was paid), before a sale the date it would get. Nothing for a cancelled payout.
 */
export async function PayoutDate({
  partnerId,
  showPk,
  listingId = null,
}: {
  partnerId: string;
  showPk: string;
  listingId?: string | null;
}) {
  const [due, locale] = await Promise.all([sellerPayoutFacts(partnerId, showPk, listingId, getDb()), pageLocale()]);
  if (!due || due.status === 'CANCELLED') return null;
  const text =
    due.status === 'PAID' && due.paidAt
      ? translator(locale, 'promise')('paidOn', { day: formatDay(due.paidAt, locale, due.timeZone) })
      : payoutDateText(locale, due, due.status ? 'sold' : 'ifSold');
  return (
    <p className="mk-muted sl-small sl-payout-date" data-testid="payout-date">
      {text}
    </p>
  );
}
