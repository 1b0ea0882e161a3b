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
  const [name, setName] = useState('');
  const [typedEmail, setTypedEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  const email = fixedEmail ?? typedEmail;
  const errors = fieldErrors(create.error);

  async function signInAndOpen() {
    setSigningIn(true);
    const res = await signIn('credentials', { email, password, redirect: false, callbackUrl: '/dashboard' });
    window.location.assign(res?.ok && !res.error ? '/dashboard' : '/signin');
  }

  return (
    <ActionForm
      onSubmit={() => {
        if (password !== confirm) {
          setMismatch(true);
          return;
        }
        setMismatch(false);
        create.mutate(variables({ name, email, password }), { onSuccess: () => void signInAndOpen() });
      }}
      error={create.error}
      errorAtField={Object.keys(errors).length > 0}
    >
      {fixedEmail === undefined && (
        <StaffEmailField value={typedEmail} onChange={(e) => setTypedEmail(e.target.value)} error={errors.email} />
      )}
      <Field
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <PasswordField
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters."
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      <PasswordField
        label="Repeat password"
        name="confirm"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
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
