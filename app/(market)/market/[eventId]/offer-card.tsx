import { withReturnTo } from '@/components/market/return-to';
import type { Locale, PageT } from '@/server/lib/i18n';
import { type MarketOffer, quantitiesOf } from '@/server/modules/fan-pages';
import { money, seatText } from '../buy-format';

/*
 * One offer of the buy page: what it is, the price per ticket with every fee beside its face value, and
 * how to buy it: a Buy link for a listing sold whole, a quantity picker for a channel's split listing (a
 * GET form to checkout whose options are that many of its listings, so it works without JavaScript).
 */

type T = PageT<'buy'>;
type TCommon = PageT<'common'>;

export function OfferCard(props: {
  offer: MarketOffer;
  returnTo: string | null;
  wanted: number | undefined;
  locale: Locale;
  t: T;
  tc: TCommon;
  /** A section's name on the seat map (sectionLabeler), which the card uses as the map does. */
  labelOf: (section: string) => string | null;
}) {
  const { offer: l, returnTo, wanted, locale, t, tc, labelOf } = props;
  const price = (minor: number) => money(minor, l.currency, locale);
  return (
    <li className="mk-listing buy-listing" data-testid="listing" data-listing-id={l.id}>
      <div className="buy-listing-what">
        <p className="mk-listing-title">
          {l.optionTitle}
          {l.priceTypeTitle ? <span className="mk-badge buy-badge">{l.priceTypeTitle}</span> : null}
          {l.fromChannel ? (
            <span className="mk-badge buy-badge" data-testid="listing-source" title={t('fromChannelHint')}>
              {t('fromChannel')}
            </span>
          ) : null}
        </p>
        <p className="mk-listing-seat" data-testid="listing-seat">
          {seatText(l.seats, t, labelOf)}
        </p>
        <p className="mk-listing-seat" data-testid="listing-quantity">
          {l.split
            ? t('splitAvailable', { count: l.ids.length })
            : `${t('quantityExactly', { count: l.ticketCount })}${l.type === 'PACK' ? ` · ${t('pack')}` : ''}`}
        </p>
        <p className="mk-hint buy-fees" data-testid="listing-fees">
          {t('priceLine', { price: price(l.priceMinor), fee: price(l.feeMinor) })}
        </p>
      </div>
      <p className="mk-price buy-price" data-testid="listing-price">
        {price(l.perTicketMinor)}
        <small>
          {tc('perTicket')} · {tc('feesIncluded')}
        </small>
        {l.faceMinor !== null ? (
          <small className="buy-face" data-testid="listing-face">
            {t('faceValue', { price: price(l.faceMinor) })}
          </small>
        ) : null}
        {l.split ? null : <small>{t('total', { total: price(l.totalMinor) })}</small>}
      </p>
      <div className="buy-listing-act">
        {l.split ? (
          <SplitPicker offer={l} returnTo={returnTo} wanted={wanted} t={t} />
        ) : (
          <a
            className="mk-btn"
            href={withReturnTo(`/checkout?listings=${l.id}`, returnTo)}
            aria-label={t('buyLabel', {
              tickets: t('quantityExactly', { count: l.ticketCount }),
              option: l.optionTitle,
              total: price(l.totalMinor),
            })}
            data-testid="buy"
          >
            {t('buy')}
          </a>
        )}
      </div>
    </li>
  );
}

/** How many tickets of a split listing: each choice is that many of its listings, sent to checkout. */
function SplitPicker(props: { offer: MarketOffer; returnTo: string | null; wanted: number | undefined; t: T }) {
  const { offer, returnTo, wanted, t } = props;
  const counts = quantitiesOf(offer);
  const chosen = wanted && counts.includes(wanted) ? wanted : 1;
  const id = `pick-${offer.id}`;
  return (
    <form method="get" action="/checkout" className="buy-pick" data-testid="split-picker">
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <label htmlFor={id}>{t('quantity')}</label>
      <select id={id} name="listings" defaultValue={offer.ids.slice(0, chosen).join(',')} data-testid="pick-quantity">
        {counts.map((n) => (
          <option key={n} value={offer.ids.slice(0, n).join(',')}>
            {n}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="mk-btn"
        data-testid="buy"
        aria-label={t('buyPickedLabel', { option: offer.optionTitle })}
      >
        {t('buy')}
      </button>
    </form>
  );
}
