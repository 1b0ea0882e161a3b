import type { ComponentProps, ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { fanOf } from '@/components/market/session';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellerListing, sellerListingPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { ListingActionForm } from './forms';
import { ShowHeading } from './parts';

/**
 * What a confirmation step on a listing (unlist, transfer) shows: the listing as its seller sees it, its
 * partner and the return origin the query may name. Not found unless the signed-in fan is the seller.
 */
export async function confirmStepListing(listingId: string, query: Record<string, string | undefined>) {
  const found = await sellerListing(listingId, null, getDb());
  if (!found) notFound();
  const fan = await fanOf(found.partnerId);
  const view = fan ? await sellerListingPage(found.partnerId, listingId, fan.email, getDb()) : null;
  if (!view) notFound();
  const partner = await getPartner(found.partnerId, getDb());
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner);
  return { view, partner, returnTo };
}

type Step = Awaited<ReturnType<typeof confirmStepListing>>;
type FormProps = ComponentProps<typeof ListingActionForm>;

/**
 * A confirmation step's page (works without JavaScript): the show, what the step does, the danger button
 * that does it and a way back to the listing.
 */
export function ConfirmStepPage({
  step: { view, partner, returnTo },
  listingId,
  testId,
  title,
  body,
  form,
  backLabel,
}: {
  step: Step;
  listingId: string;
  testId: string;
  title: string;
  body: ReactNode;
  form: Pick<FormProps, 'action' | 'label' | 'pendingLabel' | 'hidden' | 'testId'>;
  backLabel: string;
}) {
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} returnTo={returnTo} narrow>
      <section className="mk-card" aria-labelledby="confirm-title" data-testid={testId}>
        <h1 id="confirm-title">{title}</h1>
        <ShowHeading label={view.label} startsAt={view.tickets[0].startsAt} />
        <p>{body}</p>
        <div className="sl-actions">
          <ListingActionForm {...form} listingId={listingId} variant="danger" />
          <a className="mk-btn mk-btn-secondary mk-btn-block" href={withReturnTo(`/listing/${listingId}`, returnTo)}>
            {backLabel}
          </a>
        </div>
      </section>
    </MarketShell>
  );
}
