'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import {
  InvitationLink,
  PendingInvitations,
  RemovePersonButton,
  RemovePersonDialog,
} from '@/components/dashboard/people';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import { useMay, useStaffRole } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { mayGiveRole, STAFF_ROLES } from '@/server/lib/staff-roles';
import type { AppRouter } from '@/server/trpc/router';
import { ChangeRoleButton } from './change-role';
import { EndSessionsButton } from './end-sessions';
import { RoleSelect } from './role-select';

type StaffList = inferRouterOutputs<AppRouter>['staff']['list'];

interface MemberRef {
  id: string;
  email: string;
}

/**
 * Staff members with their roles, and pending invitations. An admin invites (with a role; the link is
 * shown once), revokes an invitation, changes a member's role and removes a member; every member ends
 * their own sessions. Other roles read the lists.
 */
export function StaffMembers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.staff.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.staff.list.queryKey() });
  return (
    <>
      <Members data={data} refresh={refresh} />
      <Invitations invitations={data.invitations} refresh={refresh} />
    </>
  );
}

function Members({ data, refresh }: { data: StaffList; refresh: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const admin = useMay('admin');
  const [removing, setRemoving] = useState<MemberRef | null>(null);
  const remove = useMutation(
    trpc.staff.remove.mutationOptions({
      onSuccess: () => {
        setRemoving(null);
        return refresh();
      },
    }),
  );
  const lastMember = data.items.length <= 1;

  return (
    <SectionCard
      data-testid="staff-members"
      title="Members"
      description={`Roles: ${STAFF_ROLES.map((r) => `${ROLE_LABELS[r].name} (${ROLE_LABELS[r].what})`).join('; ')}.`}
    >
      <Table label="Staff members" columns={['E-mail', 'Role', 'Name', 'Last sign-in', ACTIONS_COLUMN]}>
        {data.items.map((m) => {
          const self = m.id === data.currentStaffId;
          return (
            <tr key={m.id} data-staff-email={m.email}>
              <td>
                {m.email} {self && <Badge>You</Badge>}
              </td>
              <td data-testid="staff-role">{ROLE_LABELS[m.role].name}</td>
              <td>{m.name || <span className="muted">—</span>}</td>
              <td>
                <Time value={m.lastSignInAt} fallback="Never" />
              </td>
              <td className="actions">
                {(admin || self) && <EndSessionsButton member={m} self={self} />}
                {admin && !self && <ChangeRoleButton member={m} onChanged={refresh} />}
                {admin && !self && !lastMember && (
                  <RemovePersonButton
                    email={m.email}
                    onClick={() => {
                      remove.reset();
                      setRemoving({ id: m.id, email: m.email });
                    }}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <RemovePersonDialog
        person={removing}
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ staffId: removing.id })}
      />
    </SectionCard>
  );
}

function Invitations({
  invitations,
  refresh,
}: {
  invitations: StaffList['invitations'];
  refresh: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const admin = useMay('admin');
  const revokeInvitation = useMutation(trpc.staff.revokeInvitation.mutationOptions({ onSuccess: refresh }));

  return (
    <SectionCard
      data-testid="staff-invitations"
      title="Invitations"
      description={
        admin
          ? 'Invite someone by e-mail, with a role. Encore sends no mail: pass the one-time link on yourself. It is valid for 7 days.'
          : 'Pending invitations. Only an admin invites, with a one-time link valid for 7 days.'
      }
    >
      {admin && <InviteForm refresh={refresh} />}
      <PendingInvitations
        invitations={invitations}
        roleName={(role) => ROLE_LABELS[role].name}
        revokingId={revokeInvitation.isPending ? (revokeInvitation.variables?.invitationId ?? null) : null}
        onRevoke={admin ? (invitationId) => revokeInvitation.mutate({ invitationId }) : null}
      />
    </SectionCard>
  );
}

/** An admin's invitation: e-mail and role (Viewer unless chosen), then the one-time link. */
function InviteForm({ refresh }: { refresh: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const ownRole = useStaffRole();
  // Each sent invitation starts a fresh (empty) form.
  const [inviteRound, setInviteRound] = useState(0);
  const invite = useMutation(
    trpc.staff.invite.mutationOptions({
      gcTime: 0, // the link lives only in this component's state
      onSuccess: () => {
        setInviteRound((n) => n + 1);
        return refresh();
      },
    }),
  );
  const emailError = fieldErrors(invite.error).email ?? null;
  const roles = STAFF_ROLES.filter((r) => mayGiveRole(ownRole, r));

  return (
    <div className="card-body">
      <InvitationLink made={invite.data} roleName={(role) => ROLE_LABELS[role].name} onDone={() => invite.reset()} />
      <ActionForm
        key={inviteRound}
        aria-label="Invite a staff member"
        onSubmit={(values) => {
          const role = roles.find((r) => r === values.text('role')) ?? 'viewer';
          invite.mutate({ email: values.text('email'), role });
        }}
        error={invite.error}
        errorAtField={Boolean(emailError)}
      >
        <Field label="E-mail" name="email" type="email" required error={emailError} />
        <RoleSelect roles={roles} defaultValue="viewer" />
        <FormActions submit="Invite" pending={invite.isPending} pendingLabel="Inviting…" />
      </ActionForm>
    </div>
  );
}
