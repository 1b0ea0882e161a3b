import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getDb } from '@/db';
import { getStaffSession, safeCallbackPath } from '@/server/auth/session';
import { countStaff } from '@/server/modules/staff';
import { SignInForm } from './signin-form';

export const metadata: Metadata = { title: 'Sign in' };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const callbackPath = safeCallbackPath(typeof sp.callbackUrl === 'string' ? sp.callbackUrl : undefined);
  if (await getStaffSession()) redirect(callbackPath);
  if ((await countStaff(getDb())) === 0) redirect('/setup');
  // next-auth sends failed non-JS sign-ins back here with ?error=…
  const error = typeof sp.error === 'string' ? sp.error : null;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand auth-brand">
          Encore <span className="brand-tag">Staff</span>
        </p>
        <h1 className="auth-title">Sign in</h1>
        <SignInForm callbackPath={callbackPath} initialError={error} />
      </div>
    </main>
  );
}
