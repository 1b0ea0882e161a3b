'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Detail, DetailList } from '@/components/ui/details';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { AttemptsSection, MessageBody } from './webhook-attempts';
import styles from './webhooks.module.css';

/** While the message is pending, its page refreshes itself so the next attempt shows up. */
const LIVE_REFRESH_MS = 2_000;

/** Delivered; pending and not tried yet; pending after failed attempts (amber: it is being retried). */
export function MessageStatusBadge({ status, attempts }: { status: string; attempts: number }) {
  if (status === 'delivered') return <Badge tone="success">Delivered</Badge>;
  return <Badge tone={attempts > 0 ? 'warning' : 'neutral'}>Pending</Badge>;
}

export function WebhookMessageDetail({ partnerId, messageId }: { partnerId: string; messageId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery({
    ...trpc.webhooks.messages.get.queryOptions({ partnerId, messageId }),
    refetchInterval: (query) => (query.state.data?.message.status === 'pending' ? LIVE_REFRESH_MS : false),
  });
  const { message } = data;
  // Newest first: on a long-failing message the latest answers matter most.
  const attempts = [...data.attempts].reverse();
  const delivered = message.status === 'delivered';
  const [confirmReplay, setConfirmReplay] = useState(false);
  const admin = useMay('admin', 'develop');
  // The attempt count when a retry was queued: the note stays until the next attempt is recorded.
  const [queuedAt, setQueuedAt] = useState<number | null>(null);

  const retry = useMutation(
    trpc.webhooks.messages.retryNow.mutationOptions({
      onSuccess: () => {
        setConfirmReplay(false);
        setQueuedAt(message.attempts);
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.messages.pathKey() });
      },
    }),
  );
  const body = JSON.stringify({ family: message.family, action: message.action, data: message.data }, null, 2);

  return (
    <>
      <Card data-testid="webhook-message">
        <CardHeader
          title={message.action}
          description={
            delivered
              ? 'Delivered. Replaying sends it again with the same webhook-id.'
              : message.attempts > 0
                ? 'Not accepted yet: retried on the schedule until the receiver answers 200, 201, 202 or 204.'
                : 'Waiting for its first attempt (held while the endpoint is missing or paused).'
          }
          actions={
            !admin ? null : delivered ? (
              <Button
                onClick={() => {
                  retry.reset();
                  setConfirmReplay(true);
                }}
              >
                Replay (retry now)
              </Button>
            ) : (
              <Button
                variant="primary"
                onClick={() => retry.mutate({ partnerId, messageId })}
                pending={retry.isPending}
                pendingLabel="Queuing…"
              >
                Retry now
              </Button>
            )
          }
        />
        <div className="card-body">
          <DetailList>
            <Detail term="Status">
              <MessageStatusBadge status={message.status} attempts={message.attempts} />
            </Detail>
            <Detail term="Family">{message.family}</Detail>
            <Detail term="Attempts" data-testid="message-attempts">
              {message.attempts}
            </Detail>
            <Detail term="Created">
              <Time value={message.createdAt} seconds />
            </Detail>
            <Detail term={delivered ? 'Delivered' : 'Next attempt'}>
              <Time value={delivered ? message.deliveredAt : message.nextAttemptAt} seconds />
            </Detail>
            {message.lastStatusCode !== null || message.lastError ? (
              <Detail term="Last result" className={styles.wrap}>
                {message.lastStatusCode ? `HTTP ${message.lastStatusCode}` : 'No answer'}
                {message.lastError && message.lastError !== `HTTP ${message.lastStatusCode}`
                  ? ` · ${message.lastError}`
                  : ''}
              </Detail>
            ) : null}
          </DetailList>
          <ErrorAlert error={retry.error} shownElsewhere={confirmReplay} />
          {queuedAt !== null && message.attempts === queuedAt && (
            <Alert tone="info">Queued: the new attempt appears below in a moment.</Alert>
          )}
        </div>
      </Card>

      <MessageBody body={body} />
      <AttemptsSection attempts={attempts} />

      <ConfirmDialog
        open={confirmReplay}
        title="Replay this delivered message?"
        description={
          <p>
            The receiver already accepted it
            {message.deliveredAt ? (
              <>
                {' '}
                (<Time value={message.deliveredAt} seconds />)
              </>
            ) : null}
            . It is sent again with the same <code className="mono">webhook-id</code> ({message.id}); receivers that
            drop duplicates ignore the copy.
          </p>
        }
        confirmLabel="Replay message"
        pendingLabel="Queuing…"
        tone="primary"
        pending={retry.isPending}
        error={retry.error}
        onCancel={() => setConfirmReplay(false)}
        onConfirm={() => retry.mutate({ partnerId, messageId })}
      />
    </>
  );
}
