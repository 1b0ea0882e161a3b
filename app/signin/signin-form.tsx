'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, StaffEmailField } from '@/components/auth/fields';

function messageFor(error: string): string {
  if (error === 'CredentialsSignin') return 'Wrong e-mail or password. Check both and try again.';
  if (error === 'SessionRequired') return 'Sign in to continue.';
  // Thrown by the credentials check (server/auth/options.ts) once too many attempts failed.
  if (error === 'TooManySignInAttempts') {
    return 'Too many failed sign-in attempts. For your security, sign-in is paused for up to 15 minutes; try again later.';
  }
  return 'Sign-in failed. Please try again.';
}

export function SignInForm({ callbackPath, initialError }: { callbackPath: string; initialError: string | null }) {
  const [error, setError] = useState<string | null>(initialError ? messageFor(initialError) : null);
  const [pending, setPending] = useState(false);

  async function submit(email: string, password: string) {
    setPending(true);
    setError(null);
    try {
      const res = await signIn('credentials', { email, password, redirect: false, callbackUrl: callbackPath });
      if (!res || res.error || !res.ok) {
        setError(messageFor(res?.error ?? 'unknown'));
        setPending(false);
        return;
      }
      // A full load so every server component renders with the new session cookie.
      window.location.assign(callbackPath);
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    <ActionForm
      onSubmit={(values) => void submit(values.text('email'), values.text('password'))}
      aria-describedby={error ? 'signin-error' : undefined}
    >
      {error && (
        <div id="signin-error">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <StaffEmailField />
      <PasswordField autoComplete="current-password" />
      <Button type="submit" variant="primary" className="btn-block" pending={pending} pendingLabel="Signing in…">
        Sign in
      </Button>
    </ActionForm>
  );
}
