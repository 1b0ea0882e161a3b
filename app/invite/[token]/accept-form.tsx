'use client';

import { useMutation } from '@tanstack/react-query';
import { AccountForm } from '@/components/auth/account-form';
import { useTRPC } from '@/components/trpc/client';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const trpc = useTRPC();
  const accept = useMutation(trpc.staff.acceptInvitation.mutationOptions());
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
