import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { connection } from 'next/server';
import { TRPCReactProvider } from '@/components/trpc/provider';
import { StaffAuthCard } from '@/components/auth/auth-card';
import { getDb } from '@/db';
import { getPartner } from '@/server/modules/partners';
import { findInvitation } from '@/server/modules/staff';
import { AcceptInvitationForm } from './accept-form';

export const metadata: Metadata = { title: 'Accept invitation' };

/** Where an invitation link leads: the invitee chooses a password and becomes staff, or a partner's user. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  await connection(); // depends on the database at request time, never prerendered
  const { token } = await params;
  const invitation = await findInvitation(token, getDb());
  const partner = invitation?.partnerId ? await getPartner(invitation.partnerId, getDb()) : null;
  return (
    <StaffAuthCard title={partner ? `Join ${partner.name} on Encore` : 'Join Encore staff'}>
      {invitation ? (
        <>
          <p className="auth-lead">
            You were invited as <strong>{invitation.email}</strong>. Choose a password to create your account.
          </p>
          <TRPCReactProvider>
            <AcceptInvitationForm token={token} email={invitation.email} forPartner={partner !== null} />
          </TRPCReactProvider>
        </>
      ) : (
        <p className="auth-lead" role="alert">
          This invitation link is invalid, already used or expired. Ask a staff member for a new one, or{' '}
          <Link href="/signin">sign in</Link> if you already have an account.
        </p>
      )}
    </StaffAuthCard>
  );
}
