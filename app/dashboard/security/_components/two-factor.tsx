'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FieldDialog } from '@/components/ui/field-dialog';
import { SecretReveal } from '@/components/ui/secret-reveal';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import type { AppRouter } from '@/server/trpc/router';

type Enrolment = inferRouterOutputs<AppRouter>['twoFactor']['begin'];

const CODE_FIELD = {
  label: 'Code from your app',
  name: 'code',
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  maxLength: 9,
  required: true,
  hint: '6 digits; a new code comes every 30 seconds.',
} as const;

/**
 * The signed-in member's own two-factor sign-in: off (set it up), being set up (the secret as a QR code, as
 * text and as the otpauth:// URI, shown this once; a current code turns it on), or on (a current code turns
 * it off, after asking).
 */
export function TwoFactorCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: status } = useSuspenseQuery(trpc.twoFactor.status.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.twoFactor.status.queryKey() });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const begin = useMutation(trpc.twoFactor.begin.mutationOptions({ onSuccess: (data) => setEnrolment(data) }));
  return (
    <SectionCard
      data-testid="two-factor"
      title="Two-factor sign-in"
      description="When it is on, signing in needs a code from an authenticator app on your phone (any app that takes TOTP codes) as well as your password, so a stolen password alone opens nothing."
      actions={
        status.enabled ? (
          <Badge tone="success">On</Badge>
        ) : (
          <Badge tone="neutral">{enrolment ? 'Setting up' : 'Off'}</Badge>
        )
      }
    >
      <div className="card-body stack">
        {status.enabled ? (
          <TurnOff enabledAt={status.enabledAt} refresh={refresh} />
        ) : enrolment ? (
          <Confirm
            enrolment={enrolment}
            onDone={() => {
              setEnrolment(null);
              void refresh();
            }}
            onCancel={() => setEnrolment(null)}
          />
        ) : (
          <>
            <ErrorAlert error={begin.error} />
            <div>
              <Button
                variant="primary"
                onClick={() => begin.mutate()}
                pending={begin.isPending}
                pendingLabel="Starting…"
              >
                Set up two-factor sign-in
              </Button>
            </div>
          </>
        )}
      </div>
    </SectionCard>
  );
}

/** Set-up: add the secret to the app, then prove it with the code the app shows. */
function Confirm({ enrolment, onDone, onCancel }: { enrolment: Enrolment; onDone: () => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const enable = useMutation(trpc.twoFactor.enable.mutationOptions({ onSuccess: onDone }));
  const errors = fieldErrors(enable.error);
  return (
    <ol className="two-factor-steps">
      <li>
        <p>
          In your authenticator app, add an account: scan this QR code, or type the secret key (a time-based key). It is
          shown this once.
        </p>
        <div
          className="two-factor-qr"
          role="img"
          aria-label="QR code of the secret key for your authenticator app"
          data-testid="two-factor-qr"
          dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
        />
        <SecretReveal label="Secret key" value={enrolment.secret} />
        <details className="two-factor-uri">
          <summary>Set-up link (otpauth://) for apps that take one</summary>
          <code data-testid="two-factor-uri">{enrolment.uri}</code>
        </details>
      </li>
      <li>
        <p>Enter the 6-digit code the app now shows for Encore, to turn two-factor sign-in on.</p>
        <ActionForm
          aria-label="Turn on two-factor sign-in"
          onSubmit={(values) => enable.mutate({ code: values.text('code') })}
          error={enable.error}
          errorAtField={Boolean(errors.code)}
        >
          <Field {...CODE_FIELD} error={errors.code ?? null} />
          <FormActions submit="Turn on" pending={enable.isPending} pendingLabel="Turning on…" onCancel={onCancel} />
        </ActionForm>
      </li>
    </ol>
  );
}

/** On: since when, and turning it off (a current code, in a dialog that says what it means). */
function TurnOff({ enabledAt, refresh }: { enabledAt: Date | null; refresh: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  // Closing the dialog and reading the status again: the card then shows it off.
  const done = async () => {
    setOpen(false);
    await refresh();
  };
  const disable = useMutation(trpc.twoFactor.disable.mutationOptions({ onSuccess: done }));
  const errors = fieldErrors(disable.error);
  return (
    <>
      <p>
        On
        {enabledAt ? (
          <>
            {' '}
            since <Time value={enabledAt} />
          </>
        ) : null}
        . Signing in asks for the code of your authenticator app after your password.
      </p>
      <div>
        <Button
          variant="danger"
          onClick={() => {
            disable.reset();
            setOpen(true);
          }}
        >
          Turn off two-factor sign-in
        </Button>
      </div>
      <FieldDialog
        open={open}
        title="Turn off two-factor sign-in?"
        description={<p>Signing in will need your password alone. Enter a current code from your app to confirm.</p>}
        role="alertdialog"
        formLabel="Turn off two-factor sign-in"
        field={{ ...CODE_FIELD, error: errors.code ?? null }}
        submit="Turn off"
        pending={disable.isPending}
        pendingLabel="Turning off…"
        error={disable.error}
        onSubmit={(code) => disable.mutate({ code })}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
