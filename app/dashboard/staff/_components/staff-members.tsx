'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
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
                  <Button
                    size="sm"
                    variant="ghost"
                    className="btn-danger-text"
                    aria-label={`Remove ${m.email}`}
                    onClick={() => {
                      remove.reset();
                      setRemoving({ id: m.id, email: m.email });
                    }}
                  >
                    Remove
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        description={<p>They are signed out at once and can no longer sign in. You can invite them again later.</p>}
        confirmLabel="Remove member"
        pendingLabel="Removing…"
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
      {invitations.length > 0 ? (
        <Table
          label="Pending invitations"
          columns={['E-mail', 'Role', 'Invited', 'Expires', ...(admin ? [ACTIONS_COLUMN] : [])]}
        >
          {invitations.map((i) => (
            <tr key={i.id} data-invitation-email={i.email}>
              <td>{i.email}</td>
              <td>{ROLE_LABELS[i.role].name}</td>
              <td>
                <Time value={i.createdAt} />
              </td>
              <td>
                <Time value={i.expiresAt} />
              </td>
              {admin && (
                <td className="actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Revoke the invitation for ${i.email}`}
                    pending={revokeInvitation.isPending && revokeInvitation.variables?.invitationId === i.id}
                    onClick={() => revokeInvitation.mutate({ invitationId: i.id })}
                  >
                    Revoke
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </Table>
      ) : (
        !admin && (
          <div className="card-body">
            <p className="muted">No pending invitations.</p>
          </div>
        )
      )}
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
  const inviteLink =
    invite.data && typeof window !== 'undefined'
      ? `${window.location.origin}/invite/${encodeURIComponent(invite.data.token)}`
      : null;
  const roles = STAFF_ROLES.filter((r) => mayGiveRole(ownRole, r));

  return (
    <div className="card-body">
      {invite.data && inviteLink && (
        <OneTimeSecret
          title={`Invitation for ${invite.data.invitation.email} (${ROLE_LABELS[invite.data.invitation.role].name}) created. Copy the link now.`}
          label="Invitation link"
          value={inviteLink}
          onDone={() => invite.reset()}
        >
          It is shown once and works once, until <Time value={invite.data.invitation.expiresAt} />.
        </OneTimeSecret>
      )}
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
