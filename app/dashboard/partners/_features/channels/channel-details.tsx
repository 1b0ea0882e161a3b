'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Detail, DetailList } from '@/components/ui/details';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { ChannelDialog } from './channels-section';

/** One channel: its details, edit (name, webhook URL), and a new signing secret behind a confirmation. */
export function ChannelDetails({ partnerId, channelId }: { partnerId: string; channelId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: channel } = useSuspenseQuery(trpc.channels.get.queryOptions({ partnerId, channelId }));
  const admin = useMay('admin');
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.channels.pathKey() });
  const update = useMutation(
    trpc.channels.update.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        return refresh();
      },
    }),
  );
  const rotate = useMutation(
    trpc.channels.rotateSecret.mutationOptions({ gcTime: 0, onSuccess: () => setRotating(false) }),
  );
  return (
    <SectionCard
      data-testid="channel-details"
      title="Channel"
      actions={
        admin && (
          <>
            <Button
              size="sm"
              onClick={() => {
                update.reset();
                setEditing(true);
              }}
            >
              Edit
            </Button>
            <Button
              size="sm"
              onClick={() => {
                rotate.reset();
                setRotating(true);
              }}
            >
              New signing secret
            </Button>
          </>
        )
      }
    >
      <CardBody>
        {rotate.data && (
          <OneTimeSecret
            title="New webhook signing secret. Copy it now."
            label="Webhook signing secret"
            value={rotate.data.signingSecret}
            onDone={() => rotate.reset()}
          >
            The old secret no longer verifies new deliveries.
          </OneTimeSecret>
        )}
        <DetailList>
          <Detail term="Name">{channel.name}</Detail>
          <Detail term="Channel ID">
            <code className="mono">{channel.id}</code>
          </Detail>
          <Detail term="Status">
            {channel.disabledAt ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}
          </Detail>
          <Detail term="Webhook URL">
            {channel.webhookUrl ? (
              <code className="mono">{channel.webhookUrl}</code>
            ) : (
              <span className="muted">None</span>
            )}
          </Detail>
          <Detail term="Created">
            <Time value={channel.createdAt} />
          </Detail>
        </DetailList>
      </CardBody>
      <ChannelDialog
        key={editing ? `edit-${channel.updatedAt.toISOString()}` : 'closed'}
        open={editing}
        title="Edit channel"
        submit="Save channel"
        initial={{ name: channel.name, webhookUrl: channel.webhookUrl ?? '' }}
        pending={update.isPending}
        error={update.error}
        onSubmit={(v) => update.mutate({ partnerId, channelId, ...v })}
        onCancel={() => setEditing(false)}
      />
      <ConfirmDialog
        open={rotating}
        title="Replace the signing secret?"
        description="The channel must switch to the new secret to verify the webhooks sent from now on."
        confirmLabel="Replace secret"
        pendingLabel="Replacing…"
        pending={rotate.isPending}
        error={rotate.error}
        onCancel={() => setRotating(false)}
        onConfirm={() => rotate.mutate({ partnerId, channelId })}
      />
    </SectionCard>
  );
}
