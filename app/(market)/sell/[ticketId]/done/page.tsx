import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellerListingPage, sellPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { CopyLink } from '../../../_sell/forms';
import { PayoutDate, PayoutSetup, ShowHeading } from '../../../_sell/parts';
import { moneyMajor } from '../../../_sell/reasons';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sell');
  return { title: t('doneMetaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ ticketId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/**
 * After listing: what is on sale, the payout, the link to share (the listing's own page, which anyone can
 * buy from) and the seller's listing page; the partner's `returnTo` rides along.
 */
export default async function SellDonePage({ params, searchParams }: Props) {
  await connection();
  const [{ ticketId }, query] = await Promise.all([params, searchParams]);
  const ticket = await sellPage(ticketId, getDb());
  if (!ticket || !query.listing) notFound();
  const fan = await fanOf(ticket.partnerId);
  const view = fan ? await sellerListingPage(ticket.partnerId, query.listing, fan.email, getDb()) : null;
  if (!view) notFound();
  const partner = await getPartner(ticket.partnerId, getDb());
  const t = await getTranslations('sell');
  const { listing } = view;
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner);
  const listingPath = withReturnTo(`/listing/${listing.id}`, returnTo);
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      <section className="mk-card sl-form" data-testid="sell-done" aria-labelledby="done-title">
        <h1 id="done-title">{t('doneTitle', { count: listing.ticketIds.length })}</h1>
        <ShowHeading label={view.label} startsAt={view.tickets[0].startsAt} />
        <p className="mk-success" role="status">
          {t('doneBody', {
            price: await moneyMajor(listing.price, listing.currency),
            payout: await moneyMajor(listing.sellerPayout, listing.currency),
          })}
        </p>
        <PayoutDate partnerId={partner.id} showPk={view.tickets[0].showPk} listingId={listing.id} />
        <CopyLink url={view.shareUrl} />
        <a className="mk-btn mk-btn-block" href={listingPath} data-testid="to-listing">
          {t('toListing')}
        </a>
      </section>
      <PayoutSetup partnerId={partner.id} status={view.payoutStatus} returnPath={listingPath} />
    </MarketShell>
  );
}
