import type { getTranslations } from 'next-intl/server';
import type { sellerListingPage } from '@/server/modules/marketplace';
import { formatDay } from '@/server/lib/i18n';
import { CopyLink } from '../../_sell/forms';
import { PayoutDate, ShowHeading, ticketName } from '../../_sell/parts';
import { money, moneyMajor, pageLocale } from '../../_sell/reasons';

const BADGE: Record<string, string> = {
  ACTIVE: 'mk-badge mk-badge-ok',
  RESERVED: 'mk-badge mk-badge-warn',
  SOLD: 'mk-badge mk-badge-ok',
  UNLISTED: 'mk-badge',
  CANCELLED: 'mk-badge mk-badge-bad',
};

/** The seller's listing as it stands: status, show, price and payout, and its tickets. */
export async function ListingSummary({
  view,
  partnerId,
  t,
}: {
  view: NonNullable<Awaited<ReturnType<typeof sellerListingPage>>>;
  partnerId: string;
  t: Awaited<ReturnType<typeof getTranslations<'listing'>>>;
}) {
  const { listing } = view;
  const count = listing.ticketIds.length;
  return (
    <section className="mk-card" aria-labelledby="listing-summary" data-testid="listing-seller">
      <h2 id="listing-summary" className="sl-small mk-muted">
        {t('summaryTitle')}
      </h2>
      <p>
        <span className={BADGE[listing.status]} data-testid="listing-status">
          {t(`status.${listing.status}`)}
        </span>
      </p>
      <ShowHeading label={view.label} startsAt={view.tickets[0].startsAt} level={3} />
      <dl className="sl-figures">
        <div>
          <dt>{t('price')}</dt>
          <dd data-testid="listing-price">{await moneyMajor(listing.price, listing.currency)}</dd>
        </div>
        <div>
          <dt>{t('buyerPays')}</dt>
          <dd>{await moneyMajor(listing.buyerTotal, listing.currency)}</dd>
        </div>
        <div>
          <dt>{t('payout')}</dt>
          <dd data-testid="listing-payout">{await moneyMajor(listing.sellerPayout, listing.currency)}</dd>
        </div>
      </dl>
      {view.payoutCancelled ? (
        <div className="mk-notice" role="status" data-testid="payout-cancelled">
          <p>{t(`payoutCancelledReasons.${view.payoutCancelled.reason}`)}</p>
          <p>
            {t('payoutCancelled', {
              amount: await money(view.payoutCancelled.amountMinor, view.payoutCancelled.currency),
              date: formatDay(view.payoutCancelled.at, await pageLocale()),
            })}
          </p>
        </div>
      ) : (
        <>
          {listing.status !== 'CANCELLED' ? (
            <PayoutDate partnerId={partnerId} showPk={view.tickets[0].showPk} listingId={listing.id} />
          ) : null}
          <p className="mk-muted sl-small">{t('payoutStatus', { status: view.payoutStatus })}</p>
        </>
      )}
      <h3>{t('ticketsTitle', { count })}</h3>
      <ul className="sl-tickets">
        {await Promise.all(
          view.tickets.map(async (tk) => (
            <li key={tk.pk} className="sl-ticket">
              <div className="sl-ticket-main">
                <p className="sl-ticket-name">{await ticketName(tk, view.label)}</p>
                <p className="mk-muted sl-small">{t('ticketRef', { id: tk.ticketId })}</p>
              </div>
            </li>
          )),
        )}
      </ul>
      {listing.status === 'ACTIVE' ? <CopyLink url={view.shareUrl} /> : null}
    </section>
  );
}
