import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { formatUtc } from '@/components/ui/time';
import { marketPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';

export const metadata: Metadata = { title: 'Resale market' };

function seatSection(seat: Record<string, unknown> | undefined): string {
  return typeof seat?.section === 'string' ? ` · ${seat.section}` : '';
}

type Props = { params: Promise<{ eventId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/** The event's resale market as a plain list (the fan-pages issue builds the real buying flow on it). */
export default async function MarketPage({ params, searchParams }: Props) {
  await connection();
  const [{ eventId }, query] = await Promise.all([params, searchParams]);
  const market = await marketPage(eventId, query.show);
  if (!market) notFound();
  const partner = await getPartner(market.partnerId);
  return (
    <main className="landing">
      <p className="brand">
        Encore <span className="brand-tag">{partner.name}</span>
      </p>
      <h1>{market.title}</h1>
      {market.show ? <p>{formatUtc(market.show.startsAt)}</p> : null}
      <h2>Tickets on sale</h2>
      {market.listed.length === 0 ? (
        <p data-testid="market-empty">No tickets are listed right now. Check again closer to the show.</p>
      ) : (
        <ul data-testid="market-listings">
          {market.listed.map((l) => (
            <li key={l.listingId}>
              <a href={`/listing/${l.listingId}`}>
                {l.ticketCount} × {l.ticketOptionId}
                {seatSection(l.seats[0])} — {l.pricePerTicketWithFees} {l.currency} per ticket, fees included
              </a>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
