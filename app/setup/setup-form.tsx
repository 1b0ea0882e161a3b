'use client';

import { useMutation } from '@tanstack/react-query';
import { AccountForm } from '@/components/auth/account-form';
import { useTRPC } from '@/components/trpc/client';

export function SetupForm() {
  const trpc = useTRPC();
  const create = useMutation(trpc.setup.createFirstAdmin.mutationOptions());
  return (
    <AccountForm
      create={create}
      variables={(account) => account}
      submitLabel="Create admin and sign in"
      pendingLabel="Creating…"
      signingInLabel="Signing in…"
      block
    />
  );
}
