'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState, NoMatch } from '@/components/ui/empty-state';
import { PagedList, type PageInput } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';

export interface PartnerListInput extends PageInput {
  search?: string;
}

const COLUMNS = ['Name', 'Partner ID', { label: 'Active API keys', num: true }, 'Created'];

export function PartnerList({ input }: { input: PartnerListInput }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.partners.list.queryOptions(input));
  const admin = useMay('admin');

  return (
    <PagedList
      result={data}
      basePath="/dashboard/partners"
      params={{ q: input.search }}
      nouns={['partner', 'partners']}
      none={
        input.search ? (
          <NoMatch
            noun="partners"
            query={input.search}
            description="Check the spelling, or search for part of the name."
            clearHref="/dashboard/partners"
          />
        ) : (
          <EmptyState
            title="No partners yet"
            description={
              admin
                ? 'Create a partner to give a ticketing platform its API keys.'
                : 'An admin creates partners, to give a ticketing platform its API keys.'
            }
            action={
              admin && (
                <ButtonLink href="/dashboard/partners/new" variant="primary">
                  Create the first partner
                </ButtonLink>
              )
            }
          />
        )
      }
    >
      <Table label="Partners" columns={COLUMNS}>
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
      </Table>
    </PagedList>
  );
}
