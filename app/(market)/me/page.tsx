import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import { currentFanSession, FAN_SESSION_COOKIE } from '@/server/modules/fans';
import { getPartner } from '@/server/modules/partners';

export const metadata: Metadata = { title: 'Your account', robots: { index: false } };

/** Placeholder fan account page (the fan-pages issue replaces it): who is signed in, for which partner. */
export default async function FanAccountPage() {
  await connection();
  const session = await currentFanSession((await cookies()).get(FAN_SESSION_COOKIE)?.value);
  const partner = session ? await getPartner(session.partnerId) : null;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand auth-brand">Encore{partner ? <span className="brand-tag">{partner.name}</span> : null}</p>
        <h1 className="auth-title">Your account</h1>
        {session && partner ? (
          <>
            <p className="auth-lead" data-testid="fan-signed-in">
              Signed in as <strong>{session.email}</strong> for <strong>{partner.name}</strong>.
            </p>
            <form action="/auth/signout" method="post">
              <button type="submit" className="btn btn-secondary">
                Sign out
              </button>
            </form>
          </>
        ) : (
          <p className="auth-lead">
            You are not signed in. Open the resale link from your ticket provider&apos;s website or app: it signs you in
            for that provider.
          </p>
        )}
      </div>
    </main>
  );
}
