import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { fanOf } from '@/components/market/session';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellerListing, sellerListingPage, transferEmail } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { transferAction } from '../../../_sell/actions';
import { ListingActionForm } from '../../../_sell/forms';
import { ShowHeading } from '../../../_sell/parts';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('transferMetaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/** The confirmation step of a peer-to-peer transfer: who receives the tickets, and that it cannot be undone. */
export default async function TransferPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const found = await sellerListing(listingId, null, getDb());
  if (!found) notFound();
  const fan = await fanOf(found.partnerId);
  const view = fan ? await sellerListingPage(found.partnerId, listingId, fan.email, getDb()) : null;
  const to = transferEmail.safeParse(query.to ?? '');
  if (!view || !to.success) notFound();
  const partner = await getPartner(found.partnerId, getDb());
  const t = await getTranslations('listing');
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner.returnOrigins);
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      <section className="mk-card" aria-labelledby="confirm-title" data-testid="transfer-confirm">
        <h1 id="confirm-title">{t('transferConfirmTitle')}</h1>
        <ShowHeading label={view.label} startsAt={view.tickets[0].startsAt} />
        <p>{t('transferConfirmBody', { count: view.listing.ticketIds.length, email: to.data })}</p>
        <div className="sl-actions">
          <ListingActionForm
            action={transferAction}
            listingId={listingId}
            hidden={{ to: to.data, ...(returnTo ? { returnTo } : {}) }}
            label={t('transferConfirm')}
            pendingLabel={t('saving')}
            variant="danger"
            testId="transfer-confirm-form"
          />
          <a className="mk-btn mk-btn-secondary mk-btn-block" href={withReturnTo(`/listing/${listingId}`, returnTo)}>
            {t('cancel')}
          </a>
        </div>
      </section>
    </MarketShell>
  );
}
