import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { GuaranteeBlock } from '@/components/market/guarantee';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { formatDay, type Locale } from '@/server/lib/i18n';
import { buyerPromiseFacts, sourcesOf } from '@/server/modules/marketplace';
import { buyerIntention } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { money, param } from '../../market/buy-format';
import { HoldCountdown } from '../../market/countdown';
import '../../market/buy.css';
import { OrderSummary } from './order-summary';
import { isOrderBuyer, maskedEmail } from '@/components/market/order-access';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('checkout');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Query = Record<string, string | string[] | undefined>;

/**
 * A purchase after the payment page: still paying (the hold's countdown and the way back to the payment),
 * paid (the order and each ticket's secure view), refunded afterwards (why, how much and when; no ticket
 * links), or failed / expired (try again from the market). Its personal side — the buyer's e-mail and the
 * secure-ticket links — is shown only to the buyer (their fan session, or the browser that made or paid the
 * order: components/market/order-access.ts); anyone else with the address sees the status and what was
 * bought, the e-mail masked, and is told the tickets went by mail.
 */
export default async function IntentionPage({
  params,
  searchParams,
}: {
  params: Promise<{ intentionId: string }>;
  searchParams: Promise<Query>;
}) {
  await connection();
  const [{ intentionId }, query] = await Promise.all([params, searchParams]);
  const found = await buyerIntention(intentionId, getDb());
  if (!found) notFound();
  const { intention, event, show } = found;
  const [partner, t, tb, locale, promises, buyer] = await Promise.all([
    getPartner(event.partnerId, getDb()),
    getTranslations('checkout'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
    show ? buyerPromiseFacts(show.showPk, getDb(), sourcesOf(found.listings)) : null,
    isOrderBuyer({ intentionId: intention.id, partnerId: event.partnerId, buyerEmail: intention.user }),
  ]);
  const email = buyer ? intention.user : maskedEmail(intention.user);
  const guarantee = promises ? <GuaranteeBlock facts={promises} /> : null;
  const returnTo = safeReturnTo(param(query, 'returnTo') ?? param(query, 'returnURL'), partner);
  const marketHref = withReturnTo(`/market/${event.eventPk}${show ? `?show=${show.showPk}` : ''}`, returnTo);
  const currency = intention.currency;
  const status = intention.status;
  // Tickets of a channel's listing not handed over yet (they join `tickets` once the channel fulfils).
  const fromChannel = (state: string) =>
    found.listings.reduce(
      (n, l) => n + (l.fromChannel && !l.ticketPks.length && l.status === state ? l.ticketCount : 0),
      0,
    );
  const awaiting = fromChannel('SOLD');
  // Not handed over in time: the listing was cancelled and the buyer refunded for it.
  const notDelivered = fromChannel('CANCELLED');
  const allPending = !found.tickets.length && (awaiting > 0 || notDelivered > 0);

  const summary = <OrderSummary found={found} locale={locale} t={t} tb={tb} />;

  const tryAgain = (
    <div className="buy-actions">
      <a className="mk-btn" href={marketHref} data-testid="try-again">
        {t('tryAgain')}
      </a>
    </div>
  );

  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      {found.refund ? (
        <>
          <div className="mk-notice" role="status" data-testid="purchase-refunded">
            <h1 className="buy-h2">{t('refundedTitle')}</h1>
            <p data-testid="refund-reason">{t(`refundReasons.${found.refund.reason}`)}</p>
            <p data-testid="refund-body">
              {t('refundedBody', {
                amount: money(found.refund.amountMinor, currency, locale),
                date: formatDay(found.refund.at, locale, show?.venue.timeZone),
              })}
            </p>
          </div>
          {summary}
        </>
      ) : status === 'COMPLETED' ? (
        <>
          <div className="mk-success" role="status" data-testid="purchase-success">
            <h1 className="buy-h2">{t(allPending ? 'successTitleAwaiting' : 'successTitle')}</h1>
            <p>{t(allPending ? 'successBodyAwaiting' : 'successBody', { email })}</p>
          </div>
          {awaiting ? (
            <div className="mk-card" role="status" data-testid="awaiting-delivery">
              <h2>{t('awaitingTitle')}</h2>
              <p>{t('awaitingBody', { count: awaiting, email })}</p>
            </div>
          ) : null}
          {notDelivered ? (
            <div className="mk-card" role="status" data-testid="not-delivered">
              <p>{t('notDelivered', { count: notDelivered })}</p>
            </div>
          ) : null}
          {found.tickets.length && !buyer ? (
            <p className="mk-card" data-testid="tickets-by-mail">
              {t('ticketsByMail', { count: found.tickets.length })}
            </p>
          ) : null}
          {found.tickets.length && buyer ? (
            <section className="mk-card" aria-label={tb('listingsHeading')}>
              <ul className="buy-ticket-links">
                {found.tickets.map((ticket) => (
                  <li key={ticket.ticketId}>
                    <a className="mk-btn mk-btn-secondary" href={`/t/${ticket.secureToken}`} data-testid="ticket-link">
                      {t('viewTicket', { ticket: ticket.ticketId })}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {summary}
          {guarantee}
        </>
      ) : status === 'PENDING' ? (
        <>
          <h1 className="buy-h2">{t('pendingTitle')}</h1>
          <HoldCountdown
            expiresAt={intention.expiresAt}
            label={t('heldFor')}
            expired={
              <div className="mk-alert" role="alert">
                <p>{t('expiredHold')}</p>
                <a href={marketHref}>{t('backToMarket')}</a>
              </div>
            }
          />
          {summary}
          <a className="mk-btn mk-btn-block" href={intention.paymentUrl} data-testid="continue-payment">
            {t('continuePayment')}
          </a>
          {guarantee}
        </>
      ) : (
        <>
          <div className="mk-alert" role="alert" data-testid="purchase-failed">
            <h1 className="buy-h2">
              {status === 'EXPIRED'
                ? t('expiredTitle')
                : status === 'CANCELLED'
                  ? t('cancelledTitle')
                  : t('failedTitle')}
            </h1>
            <p>{t('failedBody')}</p>
          </div>
          {tryAgain}
        </>
      )}
    </MarketShell>
  );
}
