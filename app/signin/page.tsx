import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getDb } from '@/db';
import { getStaffSession, safeCallbackPath } from '@/server/auth/session';
import { StaffAuthCard } from '@/components/auth/auth-card';
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
    <StaffAuthCard title="Sign in">
      <SignInForm callbackPath={callbackPath} initialError={error} />
    </StaffAuthCard>
  );
}
