import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { TableSuspense } from '@/components/ui/table';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import { requireStaff } from '@/server/auth/session';
import { may } from '@/server/lib/staff-roles';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { ChangePassword } from './_components/change-password';
import { StaffMembers } from './_components/staff-members';

export const metadata: Metadata = { title: 'Staff' };

export default async function StaffPage() {
  const staff = await requireStaff('/dashboard/staff');
  void getQueryClient().prefetchQuery(trpc.staff.list.queryOptions());
  return (
    <>
      <PageHeader
        title="Staff"
        description={
          may(staff.role, 'admin')
            ? 'Who can sign in to this dashboard, and what each may do. Invite members with a one-time link; removing a member, or ending their sessions, signs them out at once.'
            : `Who can sign in to this dashboard, and what each may do. You are ${ROLE_LABELS[staff.role].name}: only an admin invites, changes roles or removes members.`
        }
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
