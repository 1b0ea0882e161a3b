'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useRouter } from 'next/navigation';
import { type ReactNode, useId, useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { RETURN_ORIGINS_MAX } from '@/server/lib/return-origins';
import type { AppRouter } from '@/server/trpc/router';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];
/** The partner's two lists of origins staff edit, one per line. */
type OriginsField = 'returnOrigins' | 'widgetOrigins';

const FORMS: Record<OriginsField, { label: string; submit: string; hint: string }> = {
  returnOrigins: {
    label: 'Allowed return origins',
    submit: 'Save return origins',
    hint: `One https:// origin per line (scheme, host and port, no path), at most ${RETURN_ORIGINS_MAX}. A returnTo on another origin is refused with 400 and never shown as a back link; only these sites may frame the buy, resale and sell pages.`,
  },
  widgetOrigins: {
    label: 'Allowed widget origins',
    submit: 'Save widget origins',
    hint: `One https:// origin per line, at most ${RETURN_ORIGINS_MAX}: the only sites whose pages may use the partner's publishable key (the widget). Calls from pages of other sites are refused with 403.`,
  },
};

/**
 * The partner's allowed return origins, one per line: the only sites a fan's "back" link
 * (`returnTo`) may lead to, and the only sites that may frame its buy, resale and sell pages. Empty:
 * any returnTo is accepted (the partner page warns: ReturnOriginsWarning).
 */
export function ReturnOriginsForm({ partnerId }: { partnerId: string }) {
  return <OriginsForm partnerId={partnerId} field="returnOrigins" />;
}

/**
 * The partner's allowed widget origins, one per line: the only sites whose pages may call the API with its
 * publishable key (CORS). Empty: any site may (the partner page warns: WidgetOriginsWarning).
 */
export function WidgetOriginsForm({ partnerId }: { partnerId: string }) {
  return <OriginsForm partnerId={partnerId} field="widgetOrigins" />;
}

function OriginsForm({ partnerId, field }: { partnerId: string; field: OriginsField }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));
  const stored = partner[field].join('\n');
  const [saved, setSaved] = useState(false);
  const id = useId();
  const onSuccess = (next: Partner) => {
    // The field shows the list as stored (normalised), from the query's new value.
    queryClient.setQueryData(trpc.partners.get.queryKey({ partnerId }), next);
    setSaved(true);
    // The page's warning about an empty list is server-rendered.
    router.refresh();
  };
  const saveReturn = useMutation(trpc.partners.setReturnOrigins.mutationOptions({ onSuccess }));
  const saveWidget = useMutation(trpc.partners.setWidgetOrigins.mutationOptions({ onSuccess }));
  const save = field === 'returnOrigins' ? saveReturn : saveWidget;
  const error = fieldErrors(save.error)[field] ?? null;
  const form = FORMS[field];

  return (
    <ActionForm
      aria-label={form.label}
      onSubmit={(values) => {
        setSaved(false);
        const lines = values.text(field).split('\n');
        if (field === 'returnOrigins') saveReturn.mutate({ partnerId, returnOrigins: lines });
        else saveWidget.mutate({ partnerId, widgetOrigins: lines });
      }}
      error={save.error}
      errorAtField={Boolean(error)}
    >
      <div className="field">
        <label htmlFor={id} className="field-label">
          {form.label} <span className="field-optional"> (optional)</span>
        </label>
        <textarea
          key={stored}
          id={id}
          name={field}
          className="input"
          rows={3}
          defaultValue={stored}
          placeholder="https://tickets.partner.example"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={() => setSaved(false)}
        />
        <p id={`${id}-hint`} className="field-hint">
          {form.hint}
        </p>
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <FormActions submit={form.submit} pending={save.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

/** A warning's origins, whether the member may set them (`admin`), and otherwise who may (`setter`). */
interface WarningProps {
  origins: readonly string[];
  admin: boolean;
  setter?: string;
}

/**
 * On the partner's page while it has no allowed return origins: any site can be the return link. `admin`:
 * the member may set them (otherwise the warning says who can: `setter`, Encore's admin by default).
 */
export function ReturnOriginsWarning({ origins, admin, setter = 'An admin' }: WarningProps) {
  if (origins.length) return null;
  return (
    <OriginsWarning
      testId="return-origins-warning"
      title="No back links to the partner's pages: set your allowed origins"
    >
      Without allowed return origins, fans get a back link only to the partner&apos;s own site (its support page&apos;s,
      when set), never to the page the partner named, and no site may frame the partner&apos;s buy, resale and sell
      pages. {admin ? 'Set' : `${setter} sets`} the allowed return origins under{' '}
      <a href="#settings">Partner settings</a>.
    </OriginsWarning>
  );
}

/** On the partner's page while it has no allowed widget origins: any site may show its widget. */
export function WidgetOriginsWarning({ origins, admin, setter = 'An admin' }: WarningProps) {
  if (origins.length) return null;
  return (
    <OriginsWarning
      testId="widget-origins-warning"
      title="Any origin may show this partner's widget: set its allowed widget origins"
    >
      Any web page can call Encore with the partner&apos;s publishable key and show its resale offers.{' '}
      {admin ? 'Set' : `${setter} sets`} the allowed widget origins under <a href="#settings">Partner settings</a>.
    </OriginsWarning>
  );
}

function OriginsWarning({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <div data-testid={testId}>
      <Alert tone="warning" title={title}>
        {children}
      </Alert>
    </div>
  );
}
