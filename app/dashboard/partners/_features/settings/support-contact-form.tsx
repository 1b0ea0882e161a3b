'use client';

import { useMutation } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTRPC } from '@/components/trpc/client';
import { PARTNER_SUPPORT_URL_MAX } from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { PartnerTextForm } from './partner-text-form';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/** The partner's help page and e-mail for fans; both empty gives fans Encore's own address. */
export function SupportContactForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const saving = useMutation(trpc.partners.setSupport.mutationOptions());
  return (
    <PartnerTextForm
      partner={partner}
      label="Support contact"
      submit="Save support contact"
      valuesOf={(p: Partner) => ({ supportUrl: p.supportUrl ?? '', supportEmail: p.supportEmail ?? '' })}
      fields={[
        {
          name: 'supportUrl',
          label: 'Support page',
          type: 'url',
          maxLength: PARTNER_SUPPORT_URL_MAX,
          placeholder: 'https://…/help',
          hint: 'An https:// page where fans get help with their tickets.',
        },
        {
          name: 'supportEmail',
          label: 'Support e-mail',
          type: 'email',
          maxLength: 320,
          placeholder: 'help@example.com',
          hint: "Shown to buyers on checkout, payment, their order and the confirmation mail. Leave both empty to give fans Encore's support address.",
        },
      ]}
      saving={saving}
    />
  );
}
