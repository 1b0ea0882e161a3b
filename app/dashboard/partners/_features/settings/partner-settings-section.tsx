'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
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
import { PARTNER_LOGO_URL_MAX, PARTNER_NAME_MAX, PARTNER_SUPPORT_URL_MAX } from '@/server/modules/partners/schemas';
import { ReturnOriginsForm } from './return-origins-form';

/**
 * Renaming and disabling a partner. A disabled partner's keys answer 403 on every API; nothing is
 * deleted, and enabling it again restores access with the same keys.
 */
export function PartnerSettingsSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));
  const [name, setName] = useState(partner.name);
  const [saved, setSaved] = useState(false);
  const [logoUrl, setLogoUrl] = useState(partner.logoUrl ?? '');
  const [logoSaved, setLogoSaved] = useState(false);
  const [supportUrl, setSupportUrl] = useState(partner.supportUrl ?? '');
  const [supportEmail, setSupportEmail] = useState(partner.supportEmail ?? '');
  const [supportSaved, setSupportSaved] = useState(false);
  const [confirmDisable, setConfirmDisable] = useState(false);
  const disabled = partner.disabledAt !== null;

  const onStored = (next: typeof partner) => {
    queryClient.setQueryData(trpc.partners.get.queryKey({ partnerId }), next);
    void queryClient.invalidateQueries({ queryKey: trpc.partners.list.queryKey() });
    // The page header is server-rendered: refresh it so it shows the new name or state.
    router.refresh();
  };
  const rename = useMutation(
    trpc.partners.rename.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setName(next.name);
        setSaved(true);
      },
    }),
  );
  const setLogo = useMutation(
    trpc.partners.setLogo.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setLogoUrl(next.logoUrl ?? '');
        setLogoSaved(true);
      },
    }),
  );
  const setSupport = useMutation(
    trpc.partners.setSupport.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setSupportUrl(next.supportUrl ?? '');
        setSupportEmail(next.supportEmail ?? '');
        setSupportSaved(true);
      },
    }),
  );
  const setDisabled = useMutation(
    trpc.partners.setDisabled.mutationOptions({
      onSuccess: (next) => {
        onStored(next);
        setConfirmDisable(false);
      },
    }),
  );

  const nameError = fieldErrors(rename.error).name ?? null;
  const logoError = fieldErrors(setLogo.error).logoUrl ?? null;
  const supportErrors = fieldErrors(setSupport.error);

  return (
    <SectionCard
      data-testid="partner-settings"
      title="Partner settings"
      description="The partner's name and logo (shown on every fan page), its support contact for fans, the sites fans may return to, and whether its API keys may be used."
    >
      <div className="card-body">
        <ActionForm
          aria-label="Rename partner"
          onSubmit={() => {
            setSaved(false);
            rename.mutate({ partnerId, name });
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
        <ActionForm
          aria-label="Partner logo"
          onSubmit={() => {
            setLogoSaved(false);
            setLogo.mutate({ partnerId, logoUrl });
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
              setLogoSaved(false);
            }}
            error={logoError}
            hint="An https:// image, shown square beside the partner's name on fan pages. Leave empty to remove it."
          />
          <FormActions submit="Save logo" pending={setLogo.isPending} done={logoSaved ? 'Saved.' : null} />
        </ActionForm>
        <ActionForm
          aria-label="Support contact"
          onSubmit={() => {
            setSupportSaved(false);
            setSupport.mutate({ partnerId, supportUrl, supportEmail });
          }}
          error={setSupport.error}
          errorAtField={Boolean(supportErrors.supportUrl ?? supportErrors.supportEmail)}
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
              setSupportSaved(false);
            }}
            error={supportErrors.supportUrl ?? null}
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
              setSupportSaved(false);
            }}
            error={supportErrors.supportEmail ?? null}
            hint="Shown to buyers on checkout, payment, their order and the confirmation mail. Leave both empty to give fans Encore's support address."
          />
          <FormActions
            submit="Save support contact"
            pending={setSupport.isPending}
            done={supportSaved ? 'Saved.' : null}
          />
        </ActionForm>
        <ReturnOriginsForm partnerId={partnerId} />
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
                onClick={() => setDisabled.mutate({ partnerId, disabled: false })}
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
          onConfirm={() => setDisabled.mutate({ partnerId, disabled: true })}
        />
      </div>
    </SectionCard>
  );
}
