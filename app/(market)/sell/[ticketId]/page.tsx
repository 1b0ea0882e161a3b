import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { formatUtc } from '@/components/ui/time';
import { sellPage } from '@/server/modules/marketplace';

export const metadata: Metadata = { title: 'Sell your ticket', robots: { index: false } };

/** The selling flow's start as a plain state page (the fan-pages issue builds the flow on it). */
export default async function SellPage({ params }: { params: Promise<{ ticketId: string }> }) {
  await connection();
  const found = await sellPage((await params).ticketId);
  if (!found) notFound();
  const { ticket, listing } = found;
  return (
    <main className="landing">
      <h1>Sell ticket {ticket.ticketId}</h1>
      <p>{formatUtc(ticket.startsAt)}</p>
      <p data-testid="sell-status">
        {ticket.status !== 'VALID' || ticket.showStatus !== 'LIVE'
          ? 'This ticket can no longer be sold.'
          : listing && (listing.status === 'ACTIVE' || listing.status === 'RESERVED')
            ? `Listed at ${listing.price} ${listing.currency}.`
            : 'Not listed yet.'}
      </p>
    </main>
  );
}
