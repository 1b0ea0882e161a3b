import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Encore', template: '%s · Encore' },
  description: 'Encore connects primary ticketing platforms with a resale market.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of that response's Content Security
  // Policy (proxy.ts), which a page built ahead of time could not know.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
