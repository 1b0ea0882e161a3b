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
import { ListingActionForm, RepriceForm } from '../../_sell/forms';
import { PayoutSetup, SignInPrompt } from '../../_sell/parts';
import { moneyMajor, rangeText } from '../../_sell/reasons';
import { BADGE, ListingSummary } from './listing-summary';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('title'), robots: { index: false } };
}

type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

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
        <ListingSummary view={view} partnerId={partner.id} t={t} />
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
              <p>{t('relistBody', { partner: partner.name })}</p>
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
