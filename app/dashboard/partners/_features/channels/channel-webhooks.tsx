'use client';

import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { webhookMessagePath } from '../../_shared/paths';

const PAGE_SIZE = 20;

/** A channel's webhook deliveries (its sales, test pings): the same log as the partner's, filtered. */
export function ChannelWebhooks({ partnerId, channelId }: { partnerId: string; channelId: string }) {
  const trpc = useTRPC();
  const { data: channel } = useSuspenseQuery(trpc.channels.get.queryOptions({ partnerId, channelId }));
  const hasUrl = Boolean(channel.webhookUrl);
  const admin = useMay('admin');
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.webhooks.messages.list.queryOptions({ partnerId, channelId, page, pageSize: PAGE_SIZE }),
    refetchInterval: 5_000,
  });
  const test = useMutation(
    trpc.channels.sendTest.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.messages.list.queryKey() }),
    }),
  );
  const data = list.data;
  return (
    <SectionCard
      data-testid="channel-webhooks"
      title="Webhook deliveries"
      description="What Encore sent to this channel, signed with its secret; retried like partner webhooks until it answers 2xx."
      actions={
        admin && (
          <Button size="sm" onClick={() => test.mutate({ partnerId, channelId })} disabled={test.isPending}>
            {test.isPending ? 'Sending…' : 'Send test message'}
          </Button>
        )
      }
    >
      {!hasUrl && (
        <CardBody>
          <Alert tone="warning" title="No webhook URL">
            Messages wait here until the channel has a webhook URL{admin ? ' (Edit)' : ''}.
          </Alert>
        </CardBody>
      )}
      {test.isSuccess && (
        <CardBody>
          <p role="status">Test message queued.</p>
        </CardBody>
      )}
      {!data ? (
        <CardBody>
          <p className="muted">Loading deliveries…</p>
        </CardBody>
      ) : data.items.length === 0 ? (
        <CardBody>
          <EmptyState title="No deliveries yet" description="Sales of the channel's listings will be sent here." />
        </CardBody>
      ) : (
        <>
          <Table
            label="Channel webhook deliveries"
            columns={['Message', 'Action', 'Status', 'Attempts', 'Created']}
            bodyTestId="channel-webhook-rows"
          >
            {data.items.map((m) => (
              <tr key={m.id}>
                <td>
                  <Link href={webhookMessagePath(partnerId, m.id)}>
                    <code className="mono">{m.id}</code>
                  </Link>
                </td>
                <td>{m.action}</td>
                <td>
                  {m.status === 'delivered' ? (
                    <Badge tone="success">Delivered</Badge>
                  ) : (
                    <Badge tone={m.attempts > 0 ? 'danger' : 'warning'}>Pending</Badge>
                  )}
                </td>
                <td>{m.attempts}</td>
                <td>
                  <Time value={m.createdAt} />
                </td>
              </tr>
            ))}
          </Table>
          {data.pageCount > 1 && (
            <CardBody>
              <div className="toolbar">
                <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <span className="muted">
                  Page {data.page} of {data.pageCount}
                </span>
                <Button size="sm" disabled={page >= data.pageCount} onClick={() => setPage(page + 1)}>
                  Next
                </Button>
              </div>
            </CardBody>
          )}
        </>
      )}
    </SectionCard>
  );
}
