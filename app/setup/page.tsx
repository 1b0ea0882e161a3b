import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { TRPCReactProvider } from '@/components/trpc/provider';
import { StaffAuthCard } from '@/components/auth/auth-card';
import { getDb } from '@/db';
import { countStaff } from '@/server/modules/staff';
import { SetupForm } from './setup-form';

export const metadata: Metadata = { title: 'Set up Encore' };

/** First run only: creates the first admin. Once anyone exists, this page is closed. */
export default async function SetupPage() {
  await connection(); // depends on the database at request time, never prerendered
  if ((await countStaff(getDb())) > 0) redirect('/signin');
  return (
    <StaffAuthCard title="Create the first admin">
      <p className="auth-lead">
        No staff account exists yet. The account you create here can sign in to the dashboard.
      </p>
      <TRPCReactProvider>
        <SetupForm />
      </TRPCReactProvider>
    </StaffAuthCard>
  );
}
