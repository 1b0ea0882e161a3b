'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PagedList } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';

export interface PartnerListInput {
  search?: string;
  page: number;
  pageSize: number;
}

export function PartnerList({ input }: { input: PartnerListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.partners.list.queryOptions(input));

  if (data.total === 0) {
    return input.search ? (
      <EmptyState
        title={`No partners match “${input.search}”`}
        description="Check the spelling, or search for part of the name."
        action={<ButtonLink href="/dashboard/partners">Clear search</ButtonLink>}
      />
    ) : (
      <EmptyState
        title="No partners yet"
        description="Create a partner to give a ticketing platform its API keys."
        action={
          <ButtonLink href="/dashboard/partners/new" variant="primary">
            Create the first partner
          </ButtonLink>
        }
      />
    );
  }

  return (
    <PagedList
      result={data}
      basePath="/dashboard/partners"
      params={{ q: input.search }}
      noun={data.total === 1 ? 'partner' : 'partners'}
      empty={data.items.length === 0}
    >
      <Table label="Partners">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Partner ID</th>
            <th scope="col" className="num">
              Active API keys
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((p) => (
            <tr key={p.id}>
              <td>
                <Link href={`/dashboard/partners/${p.id}`} className="strong-link">
                  {p.name}
                </Link>
                {p.disabledAt && (
                  <>
                    {' '}
                    <Badge tone="danger">Disabled</Badge>
                  </>
                )}
              </td>
              <td>
                <code className="mono">{p.id}</code>
              </td>
              <td className="num">{p.activeKeys}</td>
              <td>
                <Time value={p.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </PagedList>
  );
}
