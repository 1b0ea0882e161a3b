'use client';

import { useMutation } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Field } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { PARTNER_SUPPORT_URL_MAX } from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { useOnStored } from './use-on-stored';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/** The partner's help page and e-mail for fans; both empty gives fans Encore's own address. */
export function SupportContactForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const onStored = useOnStored(partner.id);
  const [supportUrl, setSupportUrl] = useState(partner.supportUrl ?? '');
  const [supportEmail, setSupportEmail] = useState(partner.supportEmail ?? '');
  const [saved, setSaved] = useState(false);
  const setSupport = useMutation(
    trpc.partners.setSupport.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setSupportUrl(next.supportUrl ?? '');
        setSupportEmail(next.supportEmail ?? '');
        setSaved(true);
      },
    }),
  );
  const errors = fieldErrors(setSupport.error);

  return (
    <ActionForm
      aria-label="Support contact"
      onSubmit={() => {
        setSaved(false);
        setSupport.mutate({ partnerId: partner.id, supportUrl, supportEmail });
      }}
      error={setSupport.error}
      errorAtField={Boolean(errors.supportUrl ?? errors.supportEmail)}
    >
      <Field
        label="Support page"
        name="supportUrl"
        type="url"
        maxLength={PARTNER_SUPPORT_URL_MAX}
        value={supportUrl}
        placeholder="https://…/help"
        onChange={(e) => {
          setSupportUrl(e.target.value);
          setSaved(false);
        }}
        error={errors.supportUrl ?? null}
        hint="An https:// page where fans get help with their tickets."
      />
      <Field
        label="Support e-mail"
        name="supportEmail"
        type="email"
        maxLength={320}
        value={supportEmail}
        placeholder="help@example.com"
        onChange={(e) => {
          setSupportEmail(e.target.value);
          setSaved(false);
        }}
        error={errors.supportEmail ?? null}
        hint="Shown to buyers on checkout, payment, their order and the confirmation mail. Leave both empty to give fans Encore's support address."
      />
      <FormActions submit="Save support contact" pending={setSupport.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}
