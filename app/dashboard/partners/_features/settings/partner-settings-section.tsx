'use client';

import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { PARTNER_LOGO_URL_MAX, PARTNER_NAME_MAX } from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { ReturnOriginsForm } from './return-origins-form';
import { SupportContactForm } from './support-contact-form';
import { useOnStored } from './use-on-stored';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/**
 * Renaming and disabling a partner. A disabled partner's keys answer 403 on every API; nothing is
 * deleted, and enabling it again restores access with the same keys.
 */
export function PartnerSettingsSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));

  return (
    <SectionCard
      data-testid="partner-settings"
      title="Partner settings"
      description="The partner's name and logo (shown on every fan page), its support contact for fans, the sites fans may return to, and whether its API keys may be used."
    >
      <div className="card-body">
        <RenameForm partner={partner} />
        <LogoForm partner={partner} />
        <SupportContactForm partner={partner} />
        <ReturnOriginsForm partnerId={partnerId} />
        <PartnerStatus partner={partner} />
      </div>
    </SectionCard>
  );
}

function RenameForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const onStored = useOnStored(partner.id);
  const [name, setName] = useState(partner.name);
  const [saved, setSaved] = useState(false);
  const rename = useMutation(
    trpc.partners.rename.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setName(next.name);
        setSaved(true);
      },
    }),
  );
  const nameError = fieldErrors(rename.error).name ?? null;

  return (
    <ActionForm
      aria-label="Rename partner"
      onSubmit={() => {
        setSaved(false);
        rename.mutate({ partnerId: partner.id, name });
      }}
      error={rename.error}
      errorAtField={Boolean(nameError)}
    >
      <Field
        label="Name"
        name="name"
        required
        maxLength={PARTNER_NAME_MAX}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setSaved(false);
        }}
        error={nameError}
        hint={`1 to ${PARTNER_NAME_MAX} characters.`}
      />
      <FormActions submit="Rename" pending={rename.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

function LogoForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const onStored = useOnStored(partner.id);
  const [logoUrl, setLogoUrl] = useState(partner.logoUrl ?? '');
  const [saved, setSaved] = useState(false);
  const setLogo = useMutation(
    trpc.partners.setLogo.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setLogoUrl(next.logoUrl ?? '');
        setSaved(true);
      },
    }),
  );
  const logoError = fieldErrors(setLogo.error).logoUrl ?? null;

  return (
    <ActionForm
      aria-label="Partner logo"
      onSubmit={() => {
        setSaved(false);
        setLogo.mutate({ partnerId: partner.id, logoUrl });
      }}
      error={setLogo.error}
      errorAtField={Boolean(logoError)}
    >
      <Field
        label="Logo URL"
        name="logoUrl"
        type="url"
        maxLength={PARTNER_LOGO_URL_MAX}
        value={logoUrl}
        placeholder="https://…/logo.png"
        onChange={(e) => {
          setLogoUrl(e.target.value);
          setSaved(false);
        }}
        error={logoError}
        hint="An https:// image, shown square beside the partner's name on fan pages. Leave empty to remove it."
      />
      <FormActions submit="Save logo" pending={setLogo.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

/** Active or disabled, and the button (with its confirmation) that switches it. */
function PartnerStatus({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const onStored = useOnStored(partner.id);
  const [confirmDisable, setConfirmDisable] = useState(false);
  const disabled = partner.disabledAt !== null;
  const setDisabled = useMutation(
    trpc.partners.setDisabled.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setConfirmDisable(false);
      },
    }),
  );

  return (
    <>
      <div className="form">
        <p>Status: {disabled ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}</p>
        <p className="muted">
          {disabled
            ? 'Its API keys are refused with 403. Enabling restores access with the same keys.'
            : 'Disabling refuses all its API keys (partner and channels) with 403. Nothing is deleted.'}
        </p>
        <ErrorAlert error={setDisabled.error} shownElsewhere={confirmDisable} />
        <div className="form-actions">
          {disabled ? (
            <Button
              variant="primary"
              pending={setDisabled.isPending}
              pendingLabel="Enabling…"
              onClick={() => setDisabled.mutate({ partnerId: partner.id, disabled: false })}
            >
              Enable partner
            </Button>
          ) : (
            <Button
              variant="danger"
              onClick={() => {
                setDisabled.reset();
                setConfirmDisable(true);
              }}
            >
              Disable partner
            </Button>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirmDisable}
        title={`Disable ${partner.name}?`}
        description={
          <p>
            Every API key of this partner will be refused with 403 at once. Its data and keys are kept; you can enable
            it again later.
          </p>
        }
        confirmLabel="Disable partner"
        pendingLabel="Disabling…"
        pending={setDisabled.isPending}
        error={setDisabled.error}
        onCancel={() => setConfirmDisable(false)}
        onConfirm={() => setDisabled.mutate({ partnerId: partner.id, disabled: true })}
      />
    </>
  );
}
