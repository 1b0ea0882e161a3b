'use client';

import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { errorMessage, fieldErrors } from '@/components/trpc/errors';

export function SetupForm() {
  const trpc = useTRPC();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [signingIn, setSigningIn] = useState(false);

  const create = useMutation(
    trpc.setup.createFirstAdmin.mutationOptions({
      onSuccess: async () => {
        setSigningIn(true);
        const res = await signIn('credentials', { email, password, redirect: false, callbackUrl: '/dashboard' });
        // If signing in fails for any reason, the account exists: the sign-in page takes over.
        window.location.assign(res?.ok && !res.error ? '/dashboard' : '/signin');
      },
    }),
  );
  const errors = fieldErrors(create.error);
  const pending = create.isPending || signingIn;

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
        create.mutate({ name, email, password });
      }}
    >
      {create.error && Object.keys(errors).length === 0 && <Alert tone="error">{errorMessage(create.error)}</Alert>}
      <Field
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        required
        autoFocus
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
      />
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
      <Button
        type="submit"
        variant="primary"
        className="btn-block"
        pending={pending}
        pendingLabel={signingIn ? 'Signing in…' : 'Creating…'}
      >
        Create admin and sign in
      </Button>
    </form>
  );
}
