import { getLocale, getTranslations } from 'next-intl/server';
import { withReturnTo } from '@/components/market/return-to';
import { env } from '@/server/env';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { type listingPage, showOnSale } from '@/server/modules/fan-pages';
import { money, seatText } from '../../market/buy-format';
import '../../market/buy.css';
import './listing.css';

type Shared = NonNullable<Awaited<ReturnType<typeof listingPage>>>;

/**
 * A listing as anyone but its seller sees it (the link a seller shares): the event, the show's date at
 * the venue's time zone, the venue, the ticket type, the seats and the price with the buyer's fee, and
 * Buy into the same checkout as the market's; when it cannot be bought, why, and the event's market.
 */
export async function PublicListing({
  shared,
  returnTo,
  signInHref,
}: {
  shared: Shared;
  returnTo: string | null;
  signInHref: string | null;
}) {
  const [t, tb, tc, locale] = await Promise.all([
    getTranslations('listing'),
    getTranslations('buy'),
    getTranslations('common'),
    getLocale() as Promise<Locale>,
  ]);
  const { event, show, listing: l, available } = shared;
  const venue = [show.venue.name, show.venue.address].filter(Boolean).join(' · ');
  const total = money(l.totalMinor, l.currency, locale);
  const marketHref = withReturnTo(`/market/${event.eventPk}?show=${show.showPk}`, returnTo);
  return (
    <>
      <header className="ls-head">
        <p className="ls-eyebrow">{t('shared.eyebrow')}</p>
        <h1 data-testid="event-title">{event.title}</h1>
        <dl className="buy-facts">
          <div>
            <dt>{tb('date')}</dt>
            <dd data-testid="show-date">{formatShowDate(show.startsAt, locale, show.venue.timeZone)}</dd>
          </div>
          {venue ? (
            <div>
              <dt>{tb('venue')}</dt>
              <dd data-testid="show-venue">{venue}</dd>
            </div>
          ) : null}
        </dl>
      </header>
      <section className="mk-card ls-offer" data-testid="listing-public" aria-labelledby="offer-title">
        <h2 id="offer-title" className="ls-option">
          {l.optionTitle}
          {l.priceTypeTitle ? <span className="mk-badge buy-badge">{l.priceTypeTitle}</span> : null}
        </h2>
        <dl className="ls-facts">
          <div>
            <dt>{t('shared.seats')}</dt>
            <dd data-testid="listing-seat">{seatText(l.seats, tb)}</dd>
          </div>
          <div>
            <dt>{t('shared.quantity')}</dt>
            <dd>
              {tb('quantityExactly', { count: l.ticketCount })}
              {l.type === 'PACK' ? ` · ${tb('pack')}` : ''}
            </dd>
          </div>
        </dl>
        <p className="mk-price ls-price" data-testid="listing-price">
          {money(l.perTicketMinor, l.currency, locale)}
          <small>
            {tc('perTicket')} · {tc('feesIncluded')}
          </small>
        </p>
        <p className="mk-hint" data-testid="listing-fees">
          {tb('priceLine', {
            price: money(l.priceMinor, l.currency, locale),
            fee: money(l.feeMinor, l.currency, locale),
          })}
          {' · '}
          <span data-testid="listing-total">{tb('total', { total })}</span>
        </p>
        {available ? (
          <a
            className="mk-btn mk-btn-block"
            href={withReturnTo(`/checkout?listings=${l.id}`, returnTo)}
            aria-label={t('shared.buyLabel', {
              tickets: tb('quantityExactly', { count: l.ticketCount }),
              option: l.optionTitle,
              total,
            })}
            data-testid="buy"
          >
            {tb('buy')}
          </a>
        ) : (
          <div className="mk-notice" role="status" data-testid="listing-unavailable">
            <p>
              {!showOnSale(show)
                ? t('shared.unavailable.OFF_SALE')
                : t(`shared.unavailable.${l.status === 'ACTIVE' ? 'CANCELLED' : l.status}`, {
                    minutes: env().BUY_INTENTION_MINUTES,
                  })}
            </p>
            <a href={marketHref} data-testid="to-market">
              {t('shared.toMarket')}
            </a>
          </div>
        )}
      </section>
      {signInHref ? (
        <p className="mk-muted ls-seller">
          {t('shared.sellerQuestion')} <a href={signInHref}>{t('shared.sellerSignIn')}</a>
        </p>
      ) : null}
    </>
  );
}
