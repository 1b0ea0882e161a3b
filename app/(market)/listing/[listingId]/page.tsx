import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { listingPage } from '@/server/modules/marketplace';

export const metadata: Metadata = { title: 'Listing', robots: { index: false } };

const STATE: Record<string, string> = {
  ACTIVE: 'On sale',
  RESERVED: 'Someone is buying this right now',
  SOLD: 'Sold',
  UNLISTED: 'Not on sale',
  CANCELLED: 'No longer available',
};

/** One listing's state (the fan-pages issue builds the listing and seller pages on it). */
export default async function ListingPage({ params }: { params: Promise<{ listingId: string }> }) {
  await connection();
  const found = await listingPage((await params).listingId);
  if (!found) notFound();
  const { listing } = found;
  return (
    <main className="landing">
      <h1>
        {listing.ticketIds.length} × {listing.ticketOptionId}
      </h1>
      <p data-testid="listing-status">{STATE[listing.status]}</p>
      <p>
        {listing.price} {listing.currency} per ticket · {listing.buyerTotal} {listing.currency} in total with fees
      </p>
    </main>
  );
}
