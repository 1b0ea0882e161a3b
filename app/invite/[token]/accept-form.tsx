'use client';

import { useMutation } from '@tanstack/react-query';
import { AccountForm } from '@/components/auth/account-form';
import { useTRPC } from '@/components/trpc/client';

/** The password (and name) of the invited account: Encore's staff, or a partner's user (`forPartner`). */
export function AcceptInvitationForm({
  token,
  email,
  forPartner,
}: {
  token: string;
  email: string;
  forPartner: boolean;
}) {
  const trpc = useTRPC();
  const staff = useMutation(trpc.staff.acceptInvitation.mutationOptions());
  const partner = useMutation(trpc.partnerUsers.acceptInvitation.mutationOptions());
  const accept = forPartner ? partner : staff;
  return (
    <AccountForm
      email={email}
      create={accept}
      variables={({ name, password }) => ({ token, name, password })}
      submitLabel="Create account"
      pendingLabel="Creating account…"
    />
  );
}
