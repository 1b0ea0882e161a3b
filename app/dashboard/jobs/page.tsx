import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { TableSuspense } from '@/components/ui/table';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { JobsOverview } from './_components/jobs-overview';

export const metadata: Metadata = { title: 'Jobs' };

export default async function JobsPage() {
  await requireStaff('/dashboard/jobs');
  void getQueryClient().prefetchQuery(trpc.jobs.overview.queryOptions());
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Background work: webhook delivery and the other jobs Encore runs, with their queues, failures and schedules."
      />
      <HydrateClient>
        <TableSuspense label="Loading jobs" rows={4} columns={6}>
          <JobsOverview />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
