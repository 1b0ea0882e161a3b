import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { secureViewByToken } from '@/server/modules/tickets';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Your ticket', robots: { index: false } };

/** Placeholder secure ticket view: the fan-pages issue adds the QR unlock, state and actions. */
export default async function SecureTicketPage({ params }: { params: Promise<{ token: string }> }) {
  const view = await secureViewByToken((await params).token);
  if (!view) notFound();
  return (
    <main className="landing">
      <h1>{view.event}</h1>
      <p>{view.show}</p>
      <p>
        {view.status === 'INVALIDATED' || view.showStatus === 'CANCELLED'
          ? 'This ticket is no longer valid.'
          : 'Your QR code unlocks shortly before the show.'}
      </p>
    </main>
  );
}
