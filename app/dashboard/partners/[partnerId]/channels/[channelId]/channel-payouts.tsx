'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Alert, ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/field';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';

const STATUS: Record<string, string> = {
  none: 'Not set up',
  pending: 'Pending: the channel must complete onboarding',
  active: 'Active',
};

/**
 * The channel's payout setup: the account its sales' payouts are paid to. Staff create it (or a fresh
 * onboarding link while it is pending) and send the link to the channel, which completes onboarding.
 */
export function ChannelPayouts({ partnerId, channelId }: { partnerId: string; channelId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const linkId = useId();
  const { data: setup } = useSuspenseQuery(trpc.channels.payoutSetup.queryOptions({ partnerId, channelId }));
  const start = useMutation(
    trpc.channels.startPayoutSetup.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.channels.payoutSetup.queryKey() }),
    }),
  );
  const active = setup.status === 'active';
  const money = useMay('money');
  const link = start.data?.onboardingUrl ?? null;
  return (
    <SectionCard
      data-testid="channel-payouts"
      title="Payouts"
      description="What the channel earns from its sales is paid to the payout account it sets up."
      actions={
        money &&
        !active && (
          <Button
            size="sm"
            onClick={() => start.mutate({ partnerId, channelId })}
            pending={start.isPending}
            pendingLabel="Creating link…"
          >
            {setup.status === 'none' ? 'Set up payouts' : 'New onboarding link'}
          </Button>
        )
      }
    >
      <CardBody>
        <div className="stack">
          <p data-testid="channel-payout-status">
            Payout setup: <strong>{STATUS[setup.status] ?? setup.status}</strong>
          </p>
          <ErrorAlert error={start.error} />
          {link && !active && (
            <div className="field">
              <label htmlFor={linkId} className="field-label">
                Onboarding link
              </label>
              <div className="toolbar">
                <Input
                  id={linkId}
                  readOnly
                  value={link}
                  data-testid="channel-onboarding-link"
                  aria-describedby={`${linkId}-hint`}
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton value={link} what="onboarding link" />
              </div>
              <p id={`${linkId}-hint`} className="field-hint">
                Send this link to the channel: payouts for its sales are paid to the account it sets up.
              </p>
            </div>
          )}
          {start.isSuccess && !link && (
            <Alert tone="success">Payouts are already active: no onboarding is needed.</Alert>
          )}
        </div>
      </CardBody>
    </SectionCard>
  );
}
