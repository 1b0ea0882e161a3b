import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Resale market' };

/** Placeholder resale market entry for an event: the marketplace issue fills it in. */
export default function MarketPage() {
  return (
    <main className="landing">
      <h1>Resale market</h1>
      <p>Tickets for this event will be listed here.</p>
    </main>
  );
}
