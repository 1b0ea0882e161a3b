'use client';

import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { errorMessage, fieldErrors } from '@/components/trpc/errors';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const trpc = useTRPC();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [signingIn, setSigningIn] = useState(false);

  const accept = useMutation(
    trpc.staff.acceptInvitation.mutationOptions({
      onSuccess: async () => {
        setSigningIn(true);
        const res = await signIn('credentials', { email, password, redirect: false, callbackUrl: '/dashboard' });
        // If signing in fails for any reason, the account exists: the sign-in page takes over.
        window.location.assign(res?.ok && !res.error ? '/dashboard' : '/signin');
      },
    }),
  );
  const errors = fieldErrors(accept.error);
  const pending = accept.isPending || signingIn;

  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (password !== confirm) {
          setMismatch(true);
          return;
        }
        setMismatch(false);
        accept.mutate({ token, name, password });
      }}
    >
      {accept.error && Object.keys(errors).length === 0 && <Alert tone="error">{errorMessage(accept.error)}</Alert>}
      <Field
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint="At least 8 characters."
      />
      <Field
        label="Repeat password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={mismatch ? 'The passwords do not match' : null}
      />
      <Button type="submit" variant="primary" pending={pending} pendingLabel="Creating account…">
        Create account
      </Button>
    </form>
  );
}
