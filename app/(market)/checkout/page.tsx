import type { Metadata } from 'next';
import { connection } from 'next/server';
import { checkoutPage } from '@/server/modules/marketplace';

export const metadata: Metadata = { title: 'Checkout', robots: { index: false } };

/** The listings a checkout URL names (the fan-pages issue starts the buy intention and payment from here). */
export default async function CheckoutListingsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  await connection();
  const ids = ((await searchParams).listings ?? '').split(',').filter(Boolean);
  const chosen = await checkoutPage(ids);
  return (
    <main className="landing">
      <h1>Checkout</h1>
      {chosen.length === 0 ? (
        <p>These tickets are no longer available.</p>
      ) : (
        <ul data-testid="checkout-listings">
          {chosen.map((l) => (
            <li key={l.id}>
              {l.ticketIds.length} × {l.ticketOptionId}: {l.buyerTotal} {l.currency}
              {l.status === 'ACTIVE' ? '' : ' (no longer available)'}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
