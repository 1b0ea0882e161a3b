import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { getPartner } from '@/server/modules/partners';
import { DEFAULT_FAN_PATH, safeNextPath } from '@/server/modules/fans';

export const metadata: Metadata = { title: 'Link expired', robots: { index: false } };

async function partnerOf(partnerId: string | undefined): Promise<{ id: string; name: string } | null> {
  if (!partnerId) return null;
  try {
    const { id, name } = await getPartner(partnerId);
    return { id, name };
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
  const known = await partnerOf(typeof query.partner === 'string' ? query.partner : undefined);
  const partner = known?.name ?? null;
  const where = partner ? `${partner}'s website or app` : "your ticket provider's website or app";
  const login = known ? `/login?${new URLSearchParams({ partner: known.id, next })}` : null;
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
        {login ? (
          <p>
            Or get a new sign-in link by e-mail:{' '}
            <Link href={login} className="btn btn-primary" data-testid="expired-login">
              Send me a sign-in link
            </Link>
          </p>
        ) : null}
        {next !== DEFAULT_FAN_PATH ? (
          <p>
            <Link href={next}>Continue without signing in</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
