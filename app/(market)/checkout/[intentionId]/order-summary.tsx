import type { getTranslations } from 'next-intl/server';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { type buyerIntention } from '@/server/modules/fan-pages';
import { money, seatText } from '../../market/buy-format';

type Found = NonNullable<Awaited<ReturnType<typeof buyerIntention>>>;

/** What the buyer is buying: the show, each listing's tickets and seats, and the price with its fees. */
export function OrderSummary({
  found,
  locale,
  t,
  tb,
}: {
  found: Found;
  locale: Locale;
  t: Awaited<ReturnType<typeof getTranslations<'checkout'>>>;
  tb: Awaited<ReturnType<typeof getTranslations<'buy'>>>;
}) {
  const { intention, event, show } = found;
  const currency = intention.currency;
  const totalMinor = found.listings.reduce((n, l) => n + l.totalMinor, 0);
  return (
    <section className="mk-card" aria-labelledby="order-heading">
      <h2 id="order-heading">{event.title}</h2>
      {show ? (
        <p className="mk-muted">
          {t('show', {
            date: formatShowDate(show.startsAt, locale, show.venue.timeZone),
            venue: [show.venue.name, show.venue.address].filter(Boolean).join(' · ') || show.title,
          })}
        </p>
      ) : null}
      <ul className="buy-summary-list">
        {found.listings.map((l) => (
          <li key={l.id}>
            <strong>
              {l.optionTitle}
              {l.priceTypeTitle ? ` (${l.priceTypeTitle})` : ''}
            </strong>{' '}
            · {tb('quantityExactly', { count: l.ticketCount })}
            <br />
            <span className="mk-muted">{seatText(l.seats, tb)}</span>
            <br />
            <span className="mk-muted" data-testid="order-price-line">
              {tb('priceLine', {
                price: money(l.priceMinor, currency, locale),
                fee: money(l.feeMinor, currency, locale),
              })}
            </span>
          </li>
        ))}
      </ul>
      <dl className="mk-breakdown">
        <dt>{t('subtotal', { count: found.listings.reduce((n, l) => n + l.ticketCount, 0) })}</dt>
        <dd>
          {money(
            found.listings.reduce((n, l) => n + l.subtotalMinor, 0),
            currency,
            locale,
          )}
        </dd>
        <dt>{t('fees')}</dt>
        <dd>
          {money(
            found.listings.reduce((n, l) => n + l.feesMinor, 0),
            currency,
            locale,
          )}
        </dd>
        <dt className="mk-total">{t('total')}</dt>
        <dd className="mk-total" data-testid="order-total">
          {money(totalMinor, currency, locale)}
        </dd>
      </dl>
      <p className="mk-muted">{t('order', { id: intention.id })}</p>
    </section>
  );
}
