import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellerListing, sellerListingPage } from '@/server/modules/marketplace';
import { listingPage } from '@/server/modules/fan-pages';
import { getPartner } from '@/server/modules/partners';
import { relistAction, repriceAction, transferStartAction } from '../../_sell/actions';
import { ListingActionForm, RepriceForm } from '../../_sell/forms';
import { PayoutSetup } from '../../_sell/parts';
import { rangeText } from '../../_sell/reasons';
import { ListingSummary } from './listing-summary';
import { PublicListing } from './public-listing';

type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/** The seller's tab says "Your listing"; anyone else's (the shared link) "Tickets on sale". */
export async function generateMetadata({ params }: Pick<Props, 'params'>): Promise<Metadata> {
  const [{ listingId }, t] = await Promise.all([params, getTranslations('listing')]);
  const found = await sellerListing(listingId, null, getDb());
  const fan = found ? await fanOf(found.partnerId) : null;
  const mine = fan ? (await sellerListing(listingId, fan.email, getDb()))?.mine : false;
  return { title: mine ? t('title') : t('publicTitle'), robots: { index: false } };
}

const DONE = ['repriced', 'unlisted', 'relisted', 'transferred'] as const;

/**
 * A listing's page. Its seller (signed in for the listing's partner) manages it: status, price, payout,
 * tickets, a new price within the range, taking it off sale (confirmed on a second page), listing it
 * again, and a peer-to-peer transfer where the partner's rules allow it. Anyone else (the link the
 * seller shares) sees the event, the seats and the price with fees, and buys it; the partner's
 * `returnTo` rides along as the back link on both.
 */
export default async function ListingPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const found = await sellerListing(listingId, null, getDb());
  if (!found) notFound();
  const partner = await getPartner(found.partnerId, getDb());
  const shell = { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner);
  const here = withReturnTo(`/listing/${listingId}`, returnTo);
  const t = await getTranslations('listing');
  const fan = await fanOf(partner.id);
  const view = fan ? await sellerListingPage(partner.id, listingId, fan.email, getDb()) : null;
  if (!view) {
    const shared = await listingPage(listingId, getDb());
    if (!shared || shared.partnerId !== partner.id) notFound();
    const signIn = fan ? null : `/login?partner=${encodeURIComponent(partner.id)}&next=${encodeURIComponent(here)}`;
    return (
      <MarketShell partner={shell} returnTo={returnTo} narrow>
        <PublicListing shared={shared} returnTo={returnTo} signInHref={signIn} />
      </MarketShell>
    );
  }
  const { listing } = view;
  // The partner's way back rides along each change to the listing (a hidden field, checked again on submit).
  const back = returnTo ? { returnTo } : undefined;
  const done = DONE.find((d) => d === query.done);
  const count = listing.ticketIds.length;
  const open = listing.status === 'ACTIVE' || listing.status === 'RESERVED';
  return (
    <MarketShell partner={shell} returnTo={returnTo}>
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
                returnTo={returnTo}
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
                href={withReturnTo(`/listing/${listing.id}/unlist`, returnTo)}
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
                hidden={back}
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
                    hidden={back}
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
          <PayoutSetup partnerId={partner.id} status={view.payoutStatus} returnPath={here} />
        </div>
      </div>
    </MarketShell>
  );
}
