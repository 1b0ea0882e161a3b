import type { getTranslations } from 'next-intl/server';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { seatText } from '@/server/modules/marketplace';
import { type PaymentOrder } from '@/server/modules/fan-pages';
import { money } from '../../market/buy-format';
import { HoldCountdown } from '../../market/countdown';

type T = Awaited<ReturnType<typeof getTranslations<'pay'>>>;
type TB = Awaited<ReturnType<typeof getTranslations<'buy'>>>;

/**
 * What a resale payment is for: the event, the show's date (as it is at the venue) and venue, each
 * listing's option and price type, seats, the resale price and service fee per ticket, then the split of
 * the amount. `amount` is the payment's own (what the card is charged).
 */
export function OrderDetails({
  order,
  amount,
  currency,
  locale,
  t,
  tb,
}: {
  order: PaymentOrder;
  amount: string;
  currency: string;
  locale: Locale;
  t: T;
  tb: TB;
}) {
  const m = (minor: number) => money(minor, order.currency, locale);
  const where = order.venue ?? order.showTitle;
  const date = order.startsAt ? formatShowDate(order.startsAt, locale, order.timeZone) : null;
  return (
    <section className="co-order" aria-labelledby="order-event">
      <h2 id="order-event" data-testid="order-event">
        {order.eventTitle}
      </h2>
      {date ? (
        <p className="co-for" data-testid="order-when">
          {where ? t('order.show', { date, venue: where }) : date}
        </p>
      ) : null}
      <ul className="co-items">
        {order.lines.map((l, i) => (
          <li key={i} data-testid="order-line">
            <strong>
              {l.optionTitle}
              {l.priceTypeTitle ? ` (${l.priceTypeTitle})` : ''}
            </strong>{' '}
            · {t('order.tickets', { count: l.ticketCount })}
            <span data-testid="order-seats">{seatText(l.seats, tb)}</span>
            <span>{t('order.priceEach', { price: m(l.priceMinor) })}</span>
            {l.feeMinor > 0 ? <span>{t('order.feeEach', { fee: m(l.feeMinor) })}</span> : null}
          </li>
        ))}
      </ul>
      <ul className="co-lines" data-testid="order-split">
        <li>
          <span>{t('order.resaleTotal', { count: order.ticketCount })}</span>
          <span>{m(order.subtotalMinor)}</span>
        </li>
        <li>
          <span>{t('order.serviceFee')}</span>
          <span>{m(order.feesMinor)}</span>
        </li>
        <li className="co-total">
          <span>{t('totalDue')}</span>
          <span data-testid="order-total">
            {amount} <abbr title={currency}>{currency}</abbr>
          </span>
        </li>
      </ul>
    </section>
  );
}

/** The hold's time left, and what happens at zero: the tickets go back on sale, with a way back to them. */
export function OrderHold({ order, t }: { order: PaymentOrder; t: T }) {
  return (
    <div className="co-hold">
      <HoldCountdown
        expiresAt={order.expiresAt}
        label={t('order.heldFor')}
        expired={
          <div className="mk-alert" role="alert">
            <p>{t('order.expired')}</p>
            <a href={order.marketPath} data-testid="hold-back">
              {t('order.backToMarket')}
            </a>
          </div>
        }
      />
      <p className="co-for co-hold-note">{t('order.heldNote')}</p>
    </div>
  );
}
