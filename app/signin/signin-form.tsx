'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordField, StaffEmailField } from '@/components/auth/fields';

// Thrown by the credentials check (server/auth/options.ts, staff/sign-in.ts): the right password of a member
// with two-factor sign-in on, and no code yet; or a code that is wrong or was used already.
const CODE_REQUIRED = 'TwoFactorCodeRequired';
const CODE_REFUSED = 'TwoFactorCodeRefused';
const CODE_REFUSED_MESSAGE =
  'That code is wrong or was used already. Enter the code your authenticator app shows now (a new one comes every 30 seconds).';

function messageFor(error: string): string {
  if (error === 'CredentialsSignin') return 'Wrong e-mail or password. Check both and try again.';
  if (error === 'SessionRequired') return 'Sign in to continue.';
  if (error === CODE_REFUSED) return CODE_REFUSED_MESSAGE;
  // Thrown by the credentials check (server/auth/options.ts) once too many attempts failed.
  if (error === 'TooManySignInAttempts') {
    return 'Too many failed sign-in attempts. For your security, sign-in is paused for up to 15 minutes; try again later.';
  }
  return 'Sign-in failed. Please try again.';
}

/**
 * E-mail and password; for a member with two-factor sign-in on, a second step on the same form asks for the
 * authenticator's code (the e-mail and password stay in the form, hidden, and are sent again with it).
 */
export function SignInForm({ callbackPath, initialError }: { callbackPath: string; initialError: string | null }) {
  const [error, setError] = useState<string | null>(initialError ? messageFor(initialError) : null);
  const [pending, setPending] = useState(false);
  // The e-mail the code is asked for; null on the first step.
  const [codeFor, setCodeFor] = useState<string | null>(null);

  async function submit(email: string, password: string, code: string) {
    setPending(true);
    setError(null);
    try {
      const res = await signIn('credentials', { email, password, code, redirect: false, callbackUrl: callbackPath });
      if (!res || res.error || !res.ok) {
        const failure = res?.error ?? 'unknown';
        if (failure === CODE_REQUIRED) setCodeFor(email);
        else setError(messageFor(failure));
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

  const codeRefused = error === CODE_REFUSED_MESSAGE;
  return (
    <ActionForm
      onSubmit={(values) =>
        void submit(values.text('email'), values.text('password'), codeFor ? values.text('code') : '')
      }
      aria-describedby={error ? 'signin-error' : undefined}
    >
      {error && !codeRefused && (
        <div id="signin-error">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <div className="signin-step" hidden={codeFor !== null}>
        <StaffEmailField />
        <PasswordField autoComplete="current-password" />
      </div>
      {codeFor !== null && <CodeStep email={codeFor} error={codeRefused ? error : null} />}
      <Button type="submit" variant="primary" className="btn-block" pending={pending} pendingLabel="Signing in…">
        Sign in
      </Button>
      {codeFor !== null && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setCodeFor(null);
            setError(null);
          }}
        >
          Use another account
        </Button>
      )}
    </ActionForm>
  );
}

/** The second step: whose account, and the code field (focused). */
function CodeStep({ email, error }: { email: string; error: string | null }) {
  return (
    <div className="signin-step" data-testid="signin-code-step">
      <Alert tone="info" title="Two-factor sign-in">
        Signing in as <strong>{email}</strong>. Enter the 6-digit code your authenticator app shows for Encore.
      </Alert>
      <Field
        label="Authentication code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={9}
        pattern="[0-9 ]*"
        required
        autoFocus
        hint="A new code comes every 30 seconds."
        error={error}
        id="signin-code"
      />
    </div>
  );
}
