'use client';

import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Detail, DetailList } from '@/components/ui/details';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { PARTNER_LOGO_URL_MAX, PARTNER_NAME_MAX } from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { ReturnOriginsForm, WidgetOriginsForm } from './origins-form';
import { PartnerTextForm } from './partner-text-form';
import { SupportContactForm } from './support-contact-form';
import { useOnStored } from './use-on-stored';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/**
 * Renaming and disabling a partner. A disabled partner's keys answer 403 on every API; nothing is
 * deleted, and enabling it again restores access with the same keys. Only an admin changes them: other
 * roles read the settings, but for the partner's own owner and developer, who set its origins (`develop`).
 */
export function PartnerSettingsSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));
  const admin = useMay('admin');
  const setsOrigins = useMay('admin', 'develop');

  return (
    <SectionCard
      data-testid="partner-settings"
      title="Partner settings"
      description="The partner's name and logo (shown on every fan page), its support contact for fans, the sites fans may return to, the sites whose pages may show its widget, and whether its API keys may be used."
    >
      <div className="card-body">
        {admin ? (
          <SettingsForms partner={partner} />
        ) : setsOrigins ? (
          <>
            <SettingsSummary partner={partner} withOrigins={false} />
            <ReturnOriginsForm partnerId={partner.id} />
            <WidgetOriginsForm partnerId={partner.id} />
          </>
        ) : (
          <SettingsSummary partner={partner} withOrigins />
        )}
      </div>
    </SectionCard>
  );
}

function SettingsForms({ partner }: { partner: Partner }) {
  const partnerId = partner.id;
  return (
    <>
      <RenameForm partner={partner} />
      <LogoForm partner={partner} />
      <SupportContactForm partner={partner} />
      <ReturnOriginsForm partnerId={partnerId} />
      <WidgetOriginsForm partnerId={partnerId} />
      <PartnerStatus partner={partner} />
    </>
  );
}

/** What the forms hold, as text, for a role that may not change them (the origins too unless `withOrigins` is false). */
function SettingsSummary({ partner, withOrigins }: { partner: Partner; withOrigins: boolean }) {
  const none = <span className="muted">None</span>;
  const origins = (list: string[], emptyMeans: string) =>
    list.length === 0 ? (
      <span className="muted">None: {emptyMeans}</span>
    ) : (
      list.map((o) => (
        <div key={o}>
          <code className="mono">{o}</code>
        </div>
      ))
    );
  return (
    <DetailList>
      <Detail term="Name">{partner.name}</Detail>
      <Detail term="Logo URL">{partner.logoUrl ? <code className="mono">{partner.logoUrl}</code> : none}</Detail>
      <Detail term="Support page">
        {partner.supportUrl ? <code className="mono">{partner.supportUrl}</code> : none}
      </Detail>
      <Detail term="Support e-mail">{partner.supportEmail ?? none}</Detail>
      {withOrigins ? (
        <>
          <Detail term="Allowed return origins">{origins(partner.returnOrigins, 'any returnTo is accepted')}</Detail>
          <Detail term="Allowed widget origins">
            {origins(partner.widgetOrigins, 'any site may show the widget')}
          </Detail>
        </>
      ) : null}
      <Detail term="Status">
        {partner.disabledAt !== null ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}
      </Detail>
    </DetailList>
  );
}

function RenameForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const saving = useMutation(trpc.partners.rename.mutationOptions());
  return (
    <PartnerTextForm
      partner={partner}
      label="Rename partner"
      submit="Rename"
      valuesOf={(p: Partner) => ({ name: p.name })}
      fields={[
        {
          name: 'name',
          label: 'Name',
          required: true,
          maxLength: PARTNER_NAME_MAX,
          hint: `1 to ${PARTNER_NAME_MAX} characters.`,
        },
      ]}
      saving={saving}
    />
  );
}

function LogoForm({ partner }: { partner: Partner }) {
  const trpc = useTRPC();
  const saving = useMutation(trpc.partners.setLogo.mutationOptions());
  return (
    <PartnerTextForm
      partner={partner}
      label="Partner logo"
      submit="Save logo"
      valuesOf={(p: Partner) => ({ logoUrl: p.logoUrl ?? '' })}
      fields={[
        {
          name: 'logoUrl',
          label: 'Logo URL',
          type: 'url',
          maxLength: PARTNER_LOGO_URL_MAX,
          placeholder: 'https://…/logo.png',
          hint: "An https:// image, shown square beside the partner's name on fan pages. Leave empty to remove it.",
        },
      ]}
      saving={saving}
    />
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
