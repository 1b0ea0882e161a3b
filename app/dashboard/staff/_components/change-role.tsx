'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormValues } from '@/components/ui/action-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ChangeRoleDialog } from '@/components/dashboard/people';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import { useStaffRole } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { mayGiveRole, STAFF_ROLES, type StaffRole } from '@/server/lib/staff-roles';
import { RoleSelect } from './role-select';

const isRole = (value: string): value is StaffRole => (STAFF_ROLES as readonly string[]).includes(value);

/**
 * "Change role" for another member (an admin's control): a dialog with the roles the signed-in member may
 * give, then, when it takes an admin's role away, a confirmation. The server's refusal (the last admin
 * keeps the role) is shown in the dialog that asked.
 */
export function ChangeRoleButton({
  member,
  onChanged,
}: {
  member: { id: string; email: string; role: StaffRole };
  onChanged: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const ownRole = useStaffRole();
  const [open, setOpen] = useState(false);
  // The role waiting for "demote" to be confirmed.
  const [demotingTo, setDemotingTo] = useState<StaffRole | null>(null);
  const change = useMutation(
    trpc.staff.changeRole.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        setDemotingTo(null);
        return onChanged();
      },
    }),
  );

  function submit(values: FormValues) {
    const role = values.text('role');
    if (!isRole(role)) return;
    if (role === member.role) {
      setOpen(false);
    } else if (member.role === 'admin') {
      // Taking an admin's role away asks first.
      change.reset();
      setOpen(false);
      setDemotingTo(role);
    } else {
      change.mutate({ staffId: member.id, role });
    }
  }

  return (
    <>
      <ChangeRoleDialog email={member.email} open={open} setOpen={setOpen} mutation={change} onSubmit={submit}>
        <RoleSelect
          data-autofocus
          defaultValue={member.role}
          roles={STAFF_ROLES.filter((r) => mayGiveRole(ownRole, r))}
        />
      </ChangeRoleDialog>
      <ConfirmDialog
        open={demotingTo !== null}
        title={`Make ${member.email} ${demotingTo ? ROLE_LABELS[demotingTo].name : ''}?`}
        description={
          <p>
            They are an admin now. As {demotingTo ? ROLE_LABELS[demotingTo].name : ''} they can no longer manage staff,
            partners, keys or settings.
          </p>
        }
        confirmLabel="Change role"
        pendingLabel="Changing…"
        pending={change.isPending}
        error={change.error}
        onCancel={() => setDemotingTo(null)}
        onConfirm={() => demotingTo && change.mutate({ staffId: member.id, role: demotingTo })}
      />
    </>
  );
}
