import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { formatUtc } from '@/components/ui/time';
import { intentionPage } from '@/server/modules/marketplace';

export const metadata: Metadata = { title: 'Checkout', robots: { index: false } };

/** A buy intention's state (the payments work turns this into the payment step). */
export default async function CheckoutPage({ params }: { params: Promise<{ intentionId: string }> }) {
  await connection();
  const found = await intentionPage((await params).intentionId);
  if (!found) notFound();
  const { intention } = found;
  return (
    <main className="landing">
      <h1>Checkout</h1>
      <p data-testid="intention-status">
        {intention.status === 'PENDING'
          ? `Held for you until ${formatUtc(new Date(intention.expiresAt))}`
          : intention.status === 'EXPIRED'
            ? 'Your hold has ended; the tickets are back on sale.'
            : intention.status === 'COMPLETED'
              ? 'Paid. The tickets are yours.'
              : 'This purchase was cancelled.'}
      </p>
      <p>
        {intention.subtotal} {intention.currency} + {intention.buyerFee} {intention.currency} fees ={' '}
        <strong>
          {intention.total} {intention.currency}
        </strong>
      </p>
    </main>
  );
}
