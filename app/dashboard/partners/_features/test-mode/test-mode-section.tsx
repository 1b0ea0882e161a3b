'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { ApiKeysSection } from '../keys/api-keys-section';
import { partnerPath } from '../../_shared/paths';

/**
 * A partner's test mode: its test twin is a partner of its own, whose `sk_test_…` keys open
 * the same API on a data space live keys never see. Here staff create and revoke the twin's keys, open
 * its pages (its events, tickets, market, webhooks: the same pages as any partner's) and wipe its data.
 * On the twin's own page (`testPartnerId` = the partner shown) it offers the wipe and the way back.
 */
export function TestModeSection({ partnerId, testPartnerId }: { partnerId: string; testPartnerId?: string }) {
  const trpc = useTRPC();
  const { data: twin } = useSuspenseQuery(trpc.partners.testMode.get.queryOptions({ partnerId }));
  const admin = useMay('admin', 'develop');
  const testId = testPartnerId ?? twin?.id;
  if (!testId) return null;
  const onTwin = testPartnerId !== undefined;
  return (
    <>
      <SectionCard
        data-testid="test-mode"
        title="Test mode"
        description="The partner's test twin: test keys (sk_test_…, and sk_test_ch_… for channels) open the same API on test data that live keys never see, and the reverse. Test payments always use the sandbox; fan pages of test data show a Test mode ribbon."
        actions={
          onTwin ? null : (
            <ButtonLink size="sm" href={partnerPath(testId)}>
              Open test data
            </ButtonLink>
          )
        }
      >
        <div className="card-body">
          <p>
            Test partner ID <code className="mono">{testId}</code>
          </p>
          {admin && <WipeTestData testPartnerId={testId} />}
        </div>
      </SectionCard>
      {onTwin ? null : (
        <ApiKeysSection
          partnerId={testId}
          kind="partner"
          testId="keys-test"
          title="Test API keys"
          description="sk_test_… keys: the Partner API on the test data. Channels test keys (sk_test_ch_…) are on the test data's Channels page."
        />
      )}
    </>
  );
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "Wipe test data" behind a confirmation: every row of the test data space goes, keys and settings stay. */
function WipeTestData({ testPartnerId }: { testPartnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const wipe = useMutation(
    trpc.partners.testMode.wipe.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        return queryClient.invalidateQueries();
      },
    }),
  );
  const removed = wipe.data ? Object.values(wipe.data).reduce((a, b) => a + b, 0) : null;
  return (
    <div className="form">
      {removed !== null ? (
        <Alert tone="success" title="Test data wiped">
          <span data-testid="wipe-result">
            {counted(removed, 'row')} deleted ({counted(wipe.data?.events ?? 0, 'event')},{' '}
            {counted(wipe.data?.tickets ?? 0, 'ticket')}, {counted(wipe.data?.listings ?? 0, 'listing')}).
          </span>
        </Alert>
      ) : null}
      <div className="form-actions">
        <Button
          variant="danger"
          onClick={() => {
            wipe.reset();
            setConfirming(true);
          }}
        >
          Wipe test data
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Wipe all test data?"
        description={
          <p>
            Every test event, ticket, listing, purchase, payout, lead, channel listing and webhook message of this
            partner is deleted. Test keys, channels and settings stay; live data is never touched. This cannot be
            undone.
          </p>
        }
        confirmLabel="Wipe test data"
        pendingLabel="Wiping…"
        pending={wipe.isPending}
        error={wipe.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => wipe.mutate({ testPartnerId })}
      />
    </div>
  );
}
