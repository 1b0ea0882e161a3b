import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
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
        <Suspense fallback={<TableSkeleton rows={4} columns={6} label="Loading jobs" />}>
          <JobsOverview />
        </Suspense>
      </HydrateClient>
    </>
  );
}
