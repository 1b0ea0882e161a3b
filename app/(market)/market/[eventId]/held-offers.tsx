import { formatClock, type Locale, type PageT } from '@/server/lib/i18n';
import type { BuyPageModel } from '@/server/modules/fan-pages';
import { money, seatText } from '../buy-format';
import { HeldTimer } from './held-timer';

type T = PageT<'buy'>;

/**
 * Offers held now by a buyer paying for them: shown as held, with the time left on the hold, not
 * hidden, so a fan sees the demand and knows when to come back. Nothing here can be bought, and no listing
 * id is on the page (a held offer is not an offer to act on).
 */
export function HeldOffers({
  model,
  labelOf,
  locale,
  t,
}: {
  model: BuyPageModel;
  /** A section's name on the seat map (sectionLabeler), as the offers use it. */
  labelOf: (section: string) => string | null;
  locale: Locale;
  t: T;
}) {
  const { count, soonest } = model.held;
  if (!count) return null;
  const zone = model.show?.venue.timeZone;
  return (
    <section className="mk-card buy-held" aria-labelledby="held-heading" data-testid="held-offers">
      <h3 id="held-heading">{t('heldHeading', { count })}</h3>
      <p className="mk-muted">{t('heldBody', { count })}</p>
      <ul className="buy-held-list">
        {soonest.map((o, i) => (
          // Keyed by place, not by listing: React writes keys into the page's payload.
          <li key={i} data-testid="held-offer">
            <span className="buy-held-what">
              {o.optionTitle} · {seatText(o.seats, t, labelOf)} · {money(o.perTicketMinor, o.currency, locale)}
            </span>
            <span className="buy-held-when">
              <HeldTimer
                endsAt={o.holdEndsAt!}
                until={t('heldUntil', { time: formatClock(o.holdEndsAt!, locale, zone) })}
                left={t('heldLeft', { time: '{time}' })}
              />
            </span>
          </li>
        ))}
      </ul>
      {count > soonest.length ? <p className="mk-muted">{t('heldMore', { count: count - soonest.length })}</p> : null}
    </section>
  );
}
