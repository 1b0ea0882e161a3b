import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { listingPage, sellerListing, sellerListingPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { relistAction, repriceAction, transferStartAction } from '../../_sell/actions';
import { CopyLink, ListingActionForm, RepriceForm } from '../../_sell/forms';
import { PayoutDate, PayoutSetup, ShowHeading, SignInPrompt, ticketName } from '../../_sell/parts';
import { formatDay } from '@/server/lib/i18n';
import { money, moneyMajor, pageLocale, rangeText } from '../../_sell/reasons';

export const metadata: Metadata = { title: 'Your listing', robots: { index: false } };

type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

const BADGE: Record<string, string> = {
  ACTIVE: 'mk-badge mk-badge-ok',
  RESERVED: 'mk-badge mk-badge-warn',
  SOLD: 'mk-badge mk-badge-ok',
  UNLISTED: 'mk-badge',
  CANCELLED: 'mk-badge mk-badge-bad',
};

const DONE = ['repriced', 'unlisted', 'relisted', 'transferred'] as const;

/**
 * A listing's page. Its seller (signed in for the listing's partner) manages it: status, price, payout,
 * tickets, a new price within the range, taking it off sale (confirmed on a second page), listing it
 * again, and a peer-to-peer transfer where the partner's rules allow it. Anyone else sees the public
 * listing (no seller data) and, when not signed in, how to sign in to manage their own.
 */
export default async function ListingPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const found = await sellerListing(listingId, null, getDb());
  if (!found) notFound();
  const partner = await getPartner(found.partnerId, getDb());
  const shell = { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  const t = await getTranslations('listing');
  const fan = await fanOf(partner.id);
  const view = fan ? await sellerListingPage(partner.id, listingId, fan.email, getDb()) : null;
  if (!view) {
    const pub = await listingPage(listingId, getDb());
    if (!pub) notFound();
    return (
      <MarketShell partner={shell} narrow>
        <h1>{t('publicTitle')}</h1>
        <section className="mk-card" data-testid="listing-public">
          <p>
            <span className={BADGE[pub.listing.status]} data-testid="listing-status">
              {t(`status.${pub.listing.status}`)}
            </span>
          </p>
          <p className="mk-price">
            {await moneyMajor(pub.listing.buyerTotal, pub.listing.currency)} <small>{t('buyerTotalNote')}</small>
          </p>
        </section>
        {fan ? null : <SignInPrompt partnerId={partner.id} partnerName={partner.name} next={`/listing/${listingId}`} />}
      </MarketShell>
    );
  }
  const { listing } = view;
  const done = DONE.find((d) => d === query.done);
  const count = listing.ticketIds.length;
  const open = listing.status === 'ACTIVE' || listing.status === 'RESERVED';
  return (
    <MarketShell partner={shell}>
      <h1>{t('title')}</h1>
      {done ? (
        <p className="mk-success" role="status" data-testid="listing-done">
          {t(`done.${done}`)}
        </p>
      ) : null}
      <div className="sl-layout">
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
                <PayoutDate partnerId={partner.id} showPk={view.tickets[0].showPk} listingId={listing.id} />
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
        <div className="sl-actions">
          {listing.status === 'ACTIVE' ? (
            <section className="mk-card" aria-labelledby="reprice-title">
              <h2 id="reprice-title">{t('repriceTitle')}</h2>
              <RepriceForm
                action={repriceAction}
                listingId={listing.id}
                partnerName={partner.name}
                currency={listing.currency}
                faceMinor={view.range.faceMinor}
                range={await rangeText(view.range)}
                model={view.payoutModel}
                count={count}
                priceMajor={String(listing.price)}
              />
            </section>
          ) : null}
          {open ? (
            <section className="mk-card" aria-labelledby="unlist-title">
              <h2 id="unlist-title">{t('unlistTitle')}</h2>
              <p>{listing.status === 'RESERVED' ? t('reservedBody') : t('unlistBody')}</p>
              <a
                className="mk-btn mk-btn-danger mk-btn-block"
                href={`/listing/${listing.id}/unlist`}
                data-testid="unlist-link"
              >
                {t('unlistAction')}
              </a>
            </section>
          ) : null}
          {view.stillOwned === false ? (
            <p className="mk-notice" data-testid="no-longer-yours">
              {t('noLongerYours', { partner: partner.name })}
            </p>
          ) : null}
          {listing.status === 'UNLISTED' && view.stillOwned !== false ? (
            <section className="mk-card" aria-labelledby="relist-title">
              <h2 id="relist-title">{t('relistTitle')}</h2>
              <p>{t('relistBody')}</p>
              <ListingActionForm
                action={relistAction}
                listingId={listing.id}
                label={t('relistAction')}
                pendingLabel={t('saving')}
                testId="relist-form"
              />
            </section>
          ) : null}
          {listing.status !== 'SOLD' && listing.status !== 'CANCELLED' && view.stillOwned !== false ? (
            <section className="mk-card" aria-labelledby="transfer-title" data-testid="transfer">
              <h2 id="transfer-title">{t('transferTitle')}</h2>
              {!view.transferAllowed ? (
                <p>{t('transferNotAllowed', { partner: partner.name })}</p>
              ) : open ? (
                <p>{t('transferUnlistFirst')}</p>
              ) : (
                <>
                  <p>{t('transferBody')}</p>
                  <ListingActionForm
                    action={transferStartAction}
                    listingId={listing.id}
                    label={t('transferContinue')}
                    pendingLabel={t('saving')}
                    variant="secondary"
                    emailLabel={t('transferEmail')}
                    testId="transfer-form"
                  />
                </>
              )}
            </section>
          ) : null}
          <PayoutSetup partnerId={partner.id} status={view.payoutStatus} returnPath={`/listing/${listing.id}`} />
        </div>
      </div>
    </MarketShell>
  );
}
