import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { fanOf } from '@/components/market/session';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellerListing, sellerListingPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { unlistAction } from '../../../_sell/actions';
import { ListingActionForm } from '../../../_sell/forms';
import { ShowHeading } from '../../../_sell/parts';
import { moneyMajor } from '../../../_sell/reasons';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('unlistMetaTitle'), robots: { index: false } };
}

/** The confirmation step of taking a listing off sale (a page of its own: works without JavaScript). */
type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

export default async function UnlistPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const found = await sellerListing(listingId, null, getDb());
  if (!found) notFound();
  const fan = await fanOf(found.partnerId);
  const view = fan ? await sellerListingPage(found.partnerId, listingId, fan.email, getDb()) : null;
  if (!view) notFound();
  const partner = await getPartner(found.partnerId, getDb());
  const t = await getTranslations('listing');
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner.returnOrigins);
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      <section className="mk-card" aria-labelledby="confirm-title" data-testid="unlist-confirm">
        <h1 id="confirm-title">{t('unlistConfirmTitle')}</h1>
        <ShowHeading label={view.label} startsAt={view.tickets[0].startsAt} />
        <p>
          {t('unlistConfirmBody', {
            count: view.listing.ticketIds.length,
            price: await moneyMajor(view.listing.price, view.listing.currency),
          })}
        </p>
        <div className="sl-actions">
          <ListingActionForm
            action={unlistAction}
            listingId={listingId}
            hidden={returnTo ? { returnTo } : undefined}
            label={t('unlistConfirm')}
            pendingLabel={t('saving')}
            variant="danger"
            testId="unlist-form"
          />
          <a className="mk-btn mk-btn-secondary mk-btn-block" href={withReturnTo(`/listing/${listingId}`, returnTo)}>
            {t('keepListed')}
          </a>
        </div>
      </section>
    </MarketShell>
  );
}
