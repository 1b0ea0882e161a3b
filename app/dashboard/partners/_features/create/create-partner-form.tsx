'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardBody, SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { SecretReveal } from '@/components/ui/secret-reveal';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { PARTNER_NAME_MAX } from '@/server/modules/partners/schemas';

export function CreatePartnerForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const nameRef = useRef<HTMLInputElement>(null);
  const create = useMutation(
    trpc.partners.create.mutationOptions({
      // The keys live only in this component's state: not cached, gone on reload.
      gcTime: 0,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.partners.pathKey() }),
    }),
  );

  if (create.data) {
    const { partner, apiKey, channelsApiKey } = create.data;
    return (
      <SectionCard
        headingId="created-title"
        title={`Partner “${partner.name}” created`}
        description={<code className="mono">{partner.id}</code>}
      >
        <CardBody>
          <Alert tone="warning" title="Copy these keys now. You won't see them again.">
            Only a hash is stored. If a key is lost, create a new one on the partner page and revoke the old one.
          </Alert>
          <div className="stack">
            <SecretReveal label="API key" value={apiKey} />
            <SecretReveal label="Channels API key" value={channelsApiKey} />
          </div>
          <div className="form-actions">
            <ButtonLink href={`/dashboard/partners/${partner.id}`} variant="primary">
              Open partner
            </ButtonLink>
            <Button
              onClick={() => {
                create.reset();
                // Focus returns to the form for the next partner.
                requestAnimationFrame(() => nameRef.current?.focus());
              }}
            >
              Create another partner
            </Button>
          </div>
        </CardBody>
      </SectionCard>
    );
  }

  const nameError = fieldErrors(create.error).name ?? null;
  return (
    <Card>
      <CardBody>
        <ActionForm
          onSubmit={(values) => create.mutate({ name: values.text('name') })}
          error={create.error}
          errorAtField={Boolean(nameError)}
        >
          <Field
            ref={nameRef}
            label="Partner name"
            name="name"
            required
            autoFocus
            maxLength={PARTNER_NAME_MAX}
            error={nameError}
            hint="The ticketing platform's name, as staff will search for it."
          />
          <FormActions submit="Create partner" pending={create.isPending} pendingLabel="Creating…">
            <ButtonLink href="/dashboard/partners" variant="ghost">
              Cancel
            </ButtonLink>
          </FormActions>
        </ActionForm>
      </CardBody>
    </Card>
  );
}
