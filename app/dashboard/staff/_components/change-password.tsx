'use client';

import { useMutation } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';

/** A member changes their own password; every session of theirs ends, so this browser signs in again. */
export function ChangePassword() {
  const trpc = useTRPC();
  const change = useMutation(
    trpc.staff.changePassword.mutationOptions({
      onSuccess: () => void signOut({ callbackUrl: '/signin' }),
    }),
  );
  const errors = fieldErrors(change.error);
  return (
    <SectionCard
      data-testid="staff-password"
      title="Your password"
      description="Changing it signs you out everywhere, this browser too; sign in again with the new one."
    >
      <div className="card-body">
        <ActionForm
          aria-label="Change your password"
          onSubmit={(values) =>
            change.mutate({ currentPassword: values.text('currentPassword'), newPassword: values.text('newPassword') })
          }
          error={change.error}
          errorAtField={Boolean(errors.currentPassword ?? errors.newPassword)}
        >
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={errors.currentPassword ?? null}
          />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            required
            minLength={8}
            error={errors.newPassword ?? null}
          />
          <FormActions submit="Change password" pending={change.isPending} pendingLabel="Changing…" />
        </ActionForm>
      </div>
    </SectionCard>
  );
}
