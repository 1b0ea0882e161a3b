'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { ActionForm } from '@/components/ui/action-form';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { fieldErrors } from '@/components/trpc/errors';
import { PasswordField, StaffEmailField } from './fields';

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** The call that creates the account (a tRPC mutation); the form signs in once it succeeds. */
interface CreateAccount<TVariables> {
  mutate(variables: TVariables, options: { onSuccess: () => void }): void;
  error: unknown;
  isPending: boolean;
}

/**
 * A new staff account: e-mail (unless an invitation fixes it), name and a password typed twice;
 * once `create` succeeds, it signs in and opens the dashboard. If signing in fails for any reason,
 * the account exists: the sign-in page takes over.
 */
export function AccountForm<TVariables>({
  email: fixedEmail,
  create,
  variables,
  submitLabel,
  pendingLabel,
  signingInLabel = pendingLabel,
  block = false,
}: {
  /** The invitee's address: not asked for. */
  email?: string;
  create: CreateAccount<TVariables>;
  variables: (account: Account) => TVariables;
  submitLabel: string;
  pendingLabel: string;
  signingInLabel?: string;
  /** A full-width submit button. */
  block?: boolean;
}) {
  const [mismatch, setMismatch] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  const errors = fieldErrors(create.error);

  async function signInAndOpen(email: string, password: string) {
    setSigningIn(true);
    const res = await signIn('credentials', { email, password, redirect: false, callbackUrl: '/dashboard' });
    window.location.assign(res?.ok && !res.error ? '/dashboard' : '/signin');
  }

  return (
    <ActionForm
      onSubmit={(values) => {
        const email = fixedEmail ?? values.text('email');
        const password = values.text('password');
        if (password !== values.text('confirm')) {
          setMismatch(true);
          return;
        }
        setMismatch(false);
        create.mutate(variables({ name: values.text('name'), email, password }), {
          onSuccess: () => void signInAndOpen(email, password),
        });
      }}
      error={create.error}
      errorAtField={Object.keys(errors).length > 0}
    >
      {fixedEmail === undefined && <StaffEmailField error={errors.email} />}
      <Field label="Name" name="name" autoComplete="name" error={errors.name} />
      <PasswordField autoComplete="new-password" minLength={8} hint="At least 8 characters." error={errors.password} />
      <PasswordField
        label="Repeat password"
        name="confirm"
        autoComplete="new-password"
        error={mismatch ? 'The passwords do not match' : null}
      />
      <Button
        type="submit"
        variant="primary"
        className={block ? 'btn-block' : undefined}
        pending={create.isPending || signingIn}
        pendingLabel={signingIn ? signingInLabel : pendingLabel}
      >
        {submitLabel}
      </Button>
    </ActionForm>
  );
}
