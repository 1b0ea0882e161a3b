'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { channelPath, channelsPath } from '../../_shared/paths';

/** Name and webhook URL of a channel, for creating or editing it. */
export function ChannelDialog({
  open,
  title,
  submit,
  initial,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  title: string;
  submit: string;
  initial: { name: string; webhookUrl: string };
  pending: boolean;
  error: unknown;
  onSubmit: (values: { name: string; webhookUrl: string }) => void;
  onCancel: () => void;
}) {
  const errors = fieldErrors(error);
  return (
    <Dialog
      open={open}
      title={title}
      description="A channel is an external platform that pushes its resale listings with its own sk_ch_ keys."
      onClose={() => {
        if (!pending) onCancel();
      }}
    >
      <ActionForm
        aria-label={title}
        onSubmit={(values) => onSubmit({ name: values.text('name'), webhookUrl: values.text('webhookUrl') })}
        error={error}
        errorAtField={Boolean(errors.name ?? errors.webhookUrl)}
      >
        <Field
          data-autofocus
          label="Name"
          name="name"
          required
          maxLength={120}
          defaultValue={initial.name}
          error={errors.name ?? null}
        />
        <Field
          label="Webhook URL"
          name="webhookUrl"
          type="url"
          maxLength={2000}
          defaultValue={initial.webhookUrl}
          error={errors.webhookUrl ?? null}
          hint="Where Encore sends the channel's sales (channelListing.sold), signed like partner webhooks."
        />
        <FormActions submit={submit} pending={pending} onCancel={onCancel} />
      </ActionForm>
    </Dialog>
  );
}

/** Enable a disabled channel at once, or ask before disabling an active one (`onDisable`). */
function ChannelToggle({
  channel,
  onEnable,
  onDisable,
}: {
  channel: { name: string; disabledAt: Date | null };
  onEnable: () => void;
  onDisable: () => void;
}) {
  return channel.disabledAt ? (
    <Button size="sm" variant="ghost" aria-label={`Enable ${channel.name}`} onClick={onEnable}>
      Enable
    </Button>
  ) : (
    <Button
      size="sm"
      variant="ghost"
      className="btn-danger-text"
      aria-label={`Disable ${channel.name}`}
      onClick={onDisable}
    >
      Disable
    </Button>
  );
}

function CreateChannelButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="primary" size="sm" onClick={onClick}>
      Create channel
    </Button>
  );
}

/** A partner's channels: create one (its signing secret shown once), each with its keys and listings. */
export function ChannelsSection({ partnerId, compact = false }: { partnerId: string; compact?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: channels } = useSuspenseQuery(trpc.channels.list.queryOptions({ partnerId }));
  // The compact list (on the partner's page) links to the channels page, where an admin changes them.
  const admin = useMay('admin');
  const editable = admin && !compact;
  const [creating, setCreating] = useState(false);
  const [disabling, setDisabling] = useState<{ id: string; name: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.channels.pathKey() });
  const create = useMutation(
    trpc.channels.create.mutationOptions({
      gcTime: 0,
      onSuccess: () => {
        setCreating(false);
        return refresh();
      },
    }),
  );
  const disable = useMutation(
    trpc.channels.setDisabled.mutationOptions({
      onSuccess: () => {
        setDisabling(null);
        return refresh();
      },
    }),
  );

  return (
    <SectionCard
      data-testid="channels"
      headingId="channels-heading"
      title="Channels"
      description="External platforms that push their resale listings into this partner's market through the Channels API, each with its own sk_ch_ keys."
      actions={
        compact ? (
          <ButtonLink href={channelsPath(partnerId)} size="sm">
            Manage channels
          </ButtonLink>
        ) : (
          editable && (
            <CreateChannelButton
              onClick={() => {
                create.reset();
                setCreating(true);
              }}
            />
          )
        )
      }
    >
      {create.data && (
        <CardBody>
          <OneTimeSecret
            title={`Channel “${create.data.name}” created. Copy its webhook signing secret now.`}
            label="Webhook signing secret"
            value={create.data.signingSecret}
            onDone={() => create.reset()}
          >
            The channel verifies the Standard Webhooks signature of its sales with it. Create its API keys on the
            channel&apos;s page.
          </OneTimeSecret>
        </CardBody>
      )}
      {channels.length === 0 ? (
        <CardBody>
          <EmptyState
            title="No channels"
            description={
              admin
                ? 'Create one to let an external platform push its listings.'
                : 'An admin creates them, to let an external platform push its listings.'
            }
          />
        </CardBody>
      ) : (
        <Table
          label="Channels"
          columns={[
            'Channel',
            'Status',
            'Active keys',
            'Listings on sale',
            'Sold',
            ...(editable ? [ACTIONS_COLUMN] : []),
          ]}
          bodyTestId="channel-rows"
        >
          {channels.map((c) => (
            <tr key={c.id}>
              <td>
                <Link href={channelPath(partnerId, c.id)}>{c.name}</Link> <code className="mono muted">{c.id}</code>
              </td>
              <td>{c.disabledAt ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}</td>
              <td>{c.activeKeys}</td>
              <td>{(c.listings.ACTIVE ?? 0) + (c.listings.RESERVED ?? 0)}</td>
              <td>{c.listings.SOLD ?? 0}</td>
              {editable && (
                <td className="actions">
                  <ChannelToggle
                    channel={c}
                    onEnable={() => disable.mutate({ partnerId, channelId: c.id, disabled: false })}
                    onDisable={() => {
                      disable.reset();
                      setDisabling({ id: c.id, name: c.name });
                    }}
                  />
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      <ChannelDialog
        key={creating ? 'open' : 'closed'}
        open={creating}
        title="Create channel"
        submit="Create channel"
        initial={{ name: '', webhookUrl: '' }}
        pending={create.isPending}
        error={create.error}
        onSubmit={(v) => create.mutate({ partnerId, ...v })}
        onCancel={() => setCreating(false)}
      />
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.name ?? ''}?`}
        description="Its keys are refused (403) at once. Its listings stay stored; nothing is deleted, and enabling it again restores access."
        confirmLabel="Disable channel"
        pendingLabel="Disabling…"
        pending={disable.isPending}
        error={disable.error}
        onCancel={() => setDisabling(null)}
        onConfirm={() => {
          if (disabling) disable.mutate({ partnerId, channelId: disabling.id, disabled: true });
        }}
      />
    </SectionCard>
  );
}
