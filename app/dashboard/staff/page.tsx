import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { TableSuspense } from '@/components/ui/table';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { ChangePassword } from './_components/change-password';
import { StaffMembers } from './_components/staff-members';

export const metadata: Metadata = { title: 'Staff' };

export default async function StaffPage() {
  await requireStaff('/dashboard/staff');
  void getQueryClient().prefetchQuery(trpc.staff.list.queryOptions());
  return (
    <>
      <PageHeader
        title="Staff"
        description="Who can sign in to this dashboard. Invite members with a one-time link; removing a member, or ending their sessions, signs them out at once."
      />
      <HydrateClient>
        <TableSuspense label="Loading staff" rows={3} columns={4}>
          <StaffMembers />
        </TableSuspense>
        <ChangePassword />
      </HydrateClient>
    </>
  );
}
