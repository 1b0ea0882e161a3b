'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import Link from '@/components/ui/link';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Alert, ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { SectionCard, Subsection } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { UrlField } from '@/components/ui/field';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { Detail, DetailList } from '@/components/ui/details';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { upsertEndpointInput } from '@/server/modules/webhooks/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { apiResolver, fieldMessages, useDashboardForm } from '../../../_shared/api-form';
import layout from '../../_shared/form-layout.module.css';
import { HeaderFields } from '../../_shared/header-fields';
import { webhookLogPath, webhookMessagePath } from '../../_shared/paths';
import styles from './webhooks.module.css';

type Endpoint = NonNullable<inferRouterOutputs<AppRouter>['webhooks']['endpoint']['get']>;

/**
 * Where Encore delivers this partner's webhooks: receiver URL, on/off, the partner's optional secret
 * header (write-only), the Standard Webhooks signing secret (shown once, on creation and rotation),
 * a test message, and the way to the delivery log. Only an admin changes them: other roles read them.
 */
export function WebhooksSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const { data: endpoint } = useSuspenseQuery(trpc.webhooks.endpoint.get.queryOptions({ partnerId }));
  // The signing secret lives only here, for as long as staff need to copy it.
  const [shownSecret, setShownSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const admin = useMay('admin', 'develop');

  return (
    <SectionCard
      data-testid="webhooks"
      title="Webhooks"
      description="Encore POSTs signed messages to the partner's receiver and retries until it answers 200, 201, 202 or 204. Nothing is dropped."
      actions={
        <ButtonLink href={webhookLogPath(partnerId)} size="sm">
          Delivery log
        </ButtonLink>
      }
    >
      {shownSecret && (
        <div className="card-body">
          <OneTimeSecret
            title={`${shownSecret.rotated ? 'New signing secret' : 'Signing secret'} created. Copy it now. You won't see it again.`}
            label="Signing secret"
            value={shownSecret.value}
            onDone={() => setShownSecret(null)}
          >
            Give it to the partner: their receiver verifies the <code className="mono">webhook-signature</code> header
            with it (Standard Webhooks).
            {shownSecret.rotated && ' Messages are signed with the new secret from now on.'}
          </OneTimeSecret>
        </div>
      )}
      <div className="card-body">
        {admin ? (
          <EndpointForm
            partnerId={partnerId}
            endpoint={endpoint}
            onSigningSecret={(value) => setShownSecret({ value, rotated: false })}
          />
        ) : (
          <EndpointSummary endpoint={endpoint} />
        )}
      </div>
      <div className="card-body">
        {endpoint ? (
          <SigningAndTest endpoint={endpoint} onRotated={(value) => setShownSecret({ value, rotated: true })} />
        ) : (
          admin && (
            <p className="muted">
              Save a receiver URL first: its signing secret is created with it. Messages raised before then wait and are
              delivered once the endpoint exists.
            </p>
          )
        )}
      </div>
    </SectionCard>
  );
}

/* ---------- Endpoint settings ---------- */

/** The endpoint as text, for a role that may not change it (the header's value stays secret). */
function EndpointSummary({ endpoint }: { endpoint: Endpoint | null }) {
  if (!endpoint) {
    return (
      <p className="muted">
        No receiver URL yet. Messages raised before an admin saves one wait and are delivered once it exists.
      </p>
    );
  }
  return (
    <DetailList>
      <Detail term="Receiver URL">
        <code className="mono">{endpoint.url}</code>
      </Detail>
      <Detail term="Secret header">
        {endpoint.secretHeaderName ? (
          <code className="mono">{endpoint.secretHeaderName}</code>
        ) : (
          <span className="muted">None</span>
        )}
      </Detail>
    </DetailList>
  );
}

interface EndpointValues {
  partnerId: string;
  url: string;
  enabled: boolean;
  secretHeaderName: string;
  secretHeaderValue: string;
}

/** What is stored; the header value is write-only, so its input starts empty. */
const valuesOf = (partnerId: string, endpoint: Endpoint | null): EndpointValues => ({
  partnerId,
  url: endpoint?.url ?? '',
  enabled: endpoint?.enabled ?? true,
  secretHeaderName: endpoint?.secretHeaderName ?? '',
  secretHeaderValue: '',
});

const inputOf = ({ partnerId, url, enabled, secretHeaderName, secretHeaderValue = '' }: EndpointValues) => {
  const name = (secretHeaderName ?? '').trim();
  return {
    partnerId,
    url,
    enabled,
    // No name: no secret header (the stored value goes too). A name and an empty value: keep the value.
    ...(name
      ? { secretHeaderName: name, ...(secretHeaderValue ? { secretHeaderValue } : {}) }
      : { secretHeaderName: null, secretHeaderValue: secretHeaderValue || null }),
  };
};

const resolver = apiResolver(upsertEndpointInput, inputOf);

function EndpointForm({
  partnerId,
  endpoint,
  onSigningSecret,
}: {
  partnerId: string;
  endpoint: Endpoint | null;
  onSigningSecret: (secret: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useDashboardForm<EndpointValues>({
    defaultValues: valuesOf(partnerId, endpoint),
    resolver,
  });

  const upsert = useMutation(
    trpc.webhooks.endpoint.upsert.mutationOptions({
      gcTime: 0, // the answer may carry the signing secret
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.webhooks.endpoint.get.queryKey({ partnerId }), result.endpoint);
        form.reset(valuesOf(partnerId, result.endpoint));
        setSaved(true);
        if (result.signingSecret) onSigningSecret(result.signingSecret);
        // Held messages may be on their way now.
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.messages.pathKey() });
      },
    }),
  );

  const { errorOf, atField } = fieldMessages(form.formState.errors, upsert.error);
  const [enabled, headerName] = useWatch({ control: form.control, name: ['enabled', 'secretHeaderName'] });
  const removingHeader = Boolean(endpoint?.secretHeaderName) && headerName.trim() === '';
  const submit = () => {
    setSaved(false);
    void form.handleSubmit((values) => upsert.mutate(inputOf(values)))();
  };

  return (
    // POST, so a submit before hydration never puts the secret header value into a URL.
    <ActionForm
      method="post"
      onSubmit={submit}
      aria-label="Webhook endpoint"
      error={upsert.error}
      errorAtField={atField}
    >
      <UrlField
        label="Receiver URL"
        required
        placeholder="https://partner.example/encore/webhooks"
        {...form.register('url')}
        error={errorOf('url')}
        hint="HTTPS, on a public address. Every message is a POST with a JSON body { family, action, data }."
      />
      <div className="field">
        <label className={styles.check}>
          <input type="checkbox" {...form.register('enabled')} />
          Deliver messages to this URL
        </label>
        <p className="field-hint">
          {enabled
            ? 'Untick to pause delivery. Paused messages wait and are sent once delivery is on again.'
            : 'Delivery is paused: messages wait and are sent once this is ticked and saved.'}
        </p>
      </div>
      <fieldset className={layout.group}>
        <legend className={layout.legend}>Secret header</legend>
        <p className="field-hint">
          Optional: a header the partner&rsquo;s receiver checks besides the signature, e.g.{' '}
          <code className="mono">X-Encore-Secret</code>.
        </p>
        <HeaderFields
          prefix="secretHeader"
          placeholder="X-Encore-Secret"
          maxLength={{ name: 64, value: 500 }}
          inputs={{ name: form.register('secretHeaderName'), value: form.register('secretHeaderValue') }}
          errors={{ name: errorOf('secretHeaderName'), value: errorOf('secretHeaderValue') }}
          disabled={{ name: false, value: removingHeader }}
          nameHint={removingHeader ? 'Empty: the header and its stored value are removed on save.' : undefined}
          stored={endpoint?.secretHeaderValueHint ?? false}
        />
      </fieldset>
      <FormActions
        submit={endpoint ? 'Save endpoint' : 'Create endpoint'}
        pending={upsert.isPending}
        done={saved ? 'Saved.' : null}
      />
    </ActionForm>
  );
}

/* ---------- Signing secret and test message ---------- */

function SigningAndTest({ endpoint, onRotated }: { endpoint: Endpoint; onRotated: (secret: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const partnerId = endpoint.partnerId;
  const [confirmRotate, setConfirmRotate] = useState(false);
  const admin = useMay('admin', 'develop');

  const rotate = useMutation(
    trpc.webhooks.endpoint.rotateSecret.mutationOptions({
      gcTime: 0,
      onSuccess: ({ signingSecret }) => {
        setConfirmRotate(false);
        onRotated(signingSecret);
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoint.get.queryKey({ partnerId }) });
      },
    }),
  );
  const sendTest = useMutation(
    trpc.webhooks.messages.sendTest.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.messages.pathKey() }),
    }),
  );

  return (
    <Subsection title={admin ? 'Signing and testing' : 'Signing'}>
      <DetailList>
        <Detail term="Status">
          {endpoint.enabled ? <Badge tone="success">Delivering</Badge> : <Badge tone="warning">Paused</Badge>}
        </Detail>
        <Detail term="Signing secret">
          <code className="mono">whsec_{endpoint.signingSecretHint}</code>
        </Detail>
        <Detail term="Last changed">
          <Time value={endpoint.updatedAt} />
        </Detail>
      </DetailList>
      {admin && (
        <div className="form-actions">
          <Button
            variant="primary"
            onClick={() => sendTest.mutate({ partnerId })}
            pending={sendTest.isPending}
            pendingLabel="Sending…"
          >
            Send test message
          </Button>
          <Button
            onClick={() => {
              rotate.reset();
              setConfirmRotate(true);
            }}
          >
            Rotate signing secret
          </Button>
        </div>
      )}
      <ErrorAlert error={sendTest.error} />
      {sendTest.data && !sendTest.isPending && (
        <Alert tone={endpoint.enabled ? 'success' : 'warning'} title="Test message queued">
          <span className={styles.wrap}>
            A <code className="mono">test.ping</code> message (
            <Link href={webhookMessagePath(partnerId, sendTest.data.messageId)}>{sendTest.data.messageId}</Link>){' '}
            {endpoint.enabled ? 'is on its way.' : 'waits until delivery is on again.'} Follow it in the{' '}
            <Link href={webhookLogPath(partnerId)}>delivery log</Link>.
          </span>
        </Alert>
      )}
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate the signing secret?"
        description={
          <p>
            Messages are signed with a new secret from now on, and the partner&rsquo;s receiver rejects them until it
            has the new secret. The new secret is shown once.
          </p>
        }
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        pending={rotate.isPending}
        error={rotate.error}
        onCancel={() => setConfirmRotate(false)}
        onConfirm={() => rotate.mutate({ partnerId })}
      />
    </Subsection>
  );
}
