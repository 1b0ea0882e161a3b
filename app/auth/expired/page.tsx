import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { getPartner } from '@/server/modules/partners';
import { DEFAULT_FAN_PATH, safeNextPath } from '@/server/modules/fans';

export const metadata: Metadata = { title: 'Link expired', robots: { index: false } };

async function partnerName(partnerId: string | undefined): Promise<string | null> {
  if (!partnerId) return null;
  try {
    return (await getPartner(partnerId)).name;
  } catch {
    return null;
  }
}

type Search = Promise<{ next?: string | string[]; partner?: string | string[] }>;

/** Where a used, expired or unknown one-time link lands: what happened and how to get a fresh one. */
export default async function LinkExpiredPage({ searchParams }: { searchParams: Search }) {
  await connection();
  const query = await searchParams;
  const next = safeNextPath(typeof query.next === 'string' ? query.next : null);
  const partner = await partnerName(typeof query.partner === 'string' ? query.partner : undefined);
  const where = partner ? `${partner}'s website or app` : "your ticket provider's website or app";
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand auth-brand">Encore</p>
        <h1 className="auth-title">This link has expired</h1>
        <p className="auth-lead">
          Sign-in links work only once and only for a few minutes, and this one was already used or is too old.
        </p>
        <p>
          To get a new one, go back to {where} and open the resale link again{partner ? '' : ' from there'}: it signs
          you in with a fresh link.
        </p>
        {next !== DEFAULT_FAN_PATH ? (
          <p>
            <Link href={next}>Continue without signing in</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
