'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { EmptyState, NoMatch } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { TimeCell } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { MailStatusBadge } from './mail-status';

export interface MailListInput extends PageInput {
  to?: string;
}

/** While a mail shown is still queued, the list refreshes itself so staff see it go out. */
const LIVE_REFRESH_MS = 3_000;

export function MailList({ input }: { input: MailListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery({
    ...trpc.mail.list.queryOptions(input),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === 'queued') ? LIVE_REFRESH_MS : false),
  });
  return (
    <PagedList
      result={data}
      basePath="/dashboard/mailbox"
      params={{ q: input.to }}
      nouns={['mail', 'mails']}
      none={
        input.to ? (
          <NoMatch
            noun="mails"
            query={input.to}
            description="Search for the whole address the mail was sent to."
            clearHref="/dashboard/mailbox"
          />
        ) : (
          <EmptyState
            title="No mails yet"
            description="Mails appear here as soon as a fan asks for a sign-in link, lists, buys or is refunded."
          />
        )
      }
    >
      <Table label="Mails" columns={['Subject', 'To', 'Kind', 'Status', 'Created (UTC)']}>
        {data.items.map((m) => (
          <tr key={m.id} data-mail-id={m.id}>
            <td>
              <Link href={`/dashboard/mailbox/${m.id}`} className="strong-link">
                {m.subject}
              </Link>
            </td>
            <td>{m.toAddress}</td>
            <td>
              <code className="mono">{m.kind}</code> <span className="muted">{m.locale}</span>
            </td>
            <td>
              <MailStatusBadge status={m.status} />
            </td>
            <TimeCell value={m.createdAt} />
          </tr>
        ))}
      </Table>
    </PagedList>
  );
}
