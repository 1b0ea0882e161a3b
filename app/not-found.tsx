import Link from 'next/link';

/**
 * Any address no page answers outside the fan pages (which have their own, in the fan's language): an
 * Encore page rather than Next.js's bare default. English even where <html> carries a fan's language (an
 * unknown address outside /dashboard, /docs, … counts as a fan page to the proxy).
 */
export default function NotFound() {
  return (
    <main className="landing" data-testid="not-found" lang="en">
      <p>Encore</p>
      <h1>We can&apos;t find that page</h1>
      <p>The address may be old or mistyped, or what it pointed to is no longer available.</p>
      <Link href="/">Go to Encore</Link>
    </main>
  );
}
