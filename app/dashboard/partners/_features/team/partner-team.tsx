'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions, type FormValues } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { SectionCard } from '@/components/ui/card';
import { Field, SelectField } from '@/components/ui/field';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import {
  ChangeRoleDialog,
  InvitationLink,
  PendingInvitations,
  RemovePersonButton,
  RemovePersonDialog,
} from '@/components/dashboard/people';
import { PARTNER_ROLE_LABELS } from '@/components/dashboard/role-names';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { PARTNER_ROLES, type PartnerRole } from '@/server/lib/staff-roles';
import type { AppRouter } from '@/server/trpc/router';

type Team = inferRouterOutputs<AppRouter>['partnerUsers']['list'];
type User = Team['users'][number];

const isPartnerRole = (value: string): value is PartnerRole => (PARTNER_ROLES as readonly string[]).includes(value);
const roleName = (role: string) => (isPartnerRole(role) ? PARTNER_ROLE_LABELS[role].name : role);

/**
 * A partner's own users and pending invitations. Its owner (and Encore's admin) invites with any partner role
 * (the one-time link is shown once), changes roles and removes (behind a confirmation); the last owner stays
 * one (the server refuses, and the dialog says why). Other roles read the lists.
 */
export function PartnerTeam({ partnerId, currentUserId }: { partnerId: string; currentUserId: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.partnerUsers.list.queryOptions({ partnerId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.partnerUsers.list.queryKey({ partnerId }) });
  return (
    <>
      <Users partnerId={partnerId} users={data.users} currentUserId={currentUserId} refresh={refresh} />
      <Invitations partnerId={partnerId} invitations={data.invitations} refresh={refresh} />
    </>
  );
}

function Users({
  partnerId,
  users,
  currentUserId,
  refresh,
}: {
  partnerId: string;
  users: User[];
  currentUserId: string | null;
  refresh: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const manage = useMay('admin', 'users');
  const [removing, setRemoving] = useState<User | null>(null);
  const remove = useMutation(
    trpc.partnerUsers.remove.mutationOptions({
      onSuccess: () => {
        setRemoving(null);
        return refresh();
      },
    }),
  );
  return (
    <SectionCard
      data-testid="partner-users"
      title="Users"
      description={`Roles: ${PARTNER_ROLES.map((r) => `${PARTNER_ROLE_LABELS[r].name} (${PARTNER_ROLE_LABELS[r].what})`).join('; ')}.`}
    >
      <Table label="Users" columns={['E-mail', 'Role', 'Name', 'Last sign-in', ...(manage ? [ACTIONS_COLUMN] : [])]}>
        {users.map((u) => {
          const self = u.id === currentUserId;
          return (
            <tr key={u.id} data-user-email={u.email}>
              <td>
                {u.email} {self && <Badge>You</Badge>}
              </td>
              <td data-testid="partner-user-role">{roleName(u.role)}</td>
              <td>{u.name || <span className="muted">—</span>}</td>
              <td>
                <Time value={u.lastSignInAt} fallback="Never" />
              </td>
              {manage && (
                <td className="actions">
                  {!self && <ChangeRoleButton partnerId={partnerId} user={u} onChanged={refresh} />}
                  {!self && (
                    <RemovePersonButton
                      email={u.email}
                      onClick={() => {
                        remove.reset();
                        setRemoving(u);
                      }}
                    />
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </Table>
      <RemovePersonDialog
        person={removing}
        confirmLabel="Remove user"
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ partnerId, userId: removing.id })}
      />
    </SectionCard>
  );
}

/** A labelled choice of partner role (`name="role"`); what each may do is said above the users. */
function PartnerRoleSelect({ defaultValue, inDialog = false }: { defaultValue: PartnerRole; inDialog?: boolean }) {
  return (
    <SelectField label="Role" name="role" defaultValue={defaultValue} data-autofocus={inDialog || undefined}>
      {PARTNER_ROLES.map((r) => (
        <option key={r} value={r}>
          {PARTNER_ROLE_LABELS[r].name}
        </option>
      ))}
    </SelectField>
  );
}

/** "Change role" for another user: a dialog; the server's refusal (the last owner) is shown in it. */
function ChangeRoleButton({
  partnerId,
  user,
  onChanged,
}: {
  partnerId: string;
  user: User;
  onChanged: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const change = useMutation(
    trpc.partnerUsers.changeRole.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        return onChanged();
      },
    }),
  );
  function submit(values: FormValues) {
    const role = values.text('role');
    if (!isPartnerRole(role)) return;
    if (role === user.role) setOpen(false);
    else change.mutate({ partnerId, userId: user.id, role });
  }
  return (
    <ChangeRoleDialog email={user.email} open={open} setOpen={setOpen} mutation={change} onSubmit={submit}>
      <PartnerRoleSelect defaultValue={user.role} inDialog />
    </ChangeRoleDialog>
  );
}

function Invitations({
  partnerId,
  invitations,
  refresh,
}: {
  partnerId: string;
  invitations: Team['invitations'];
  refresh: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const manage = useMay('admin', 'users');
  const revoke = useMutation(trpc.partnerUsers.revokeInvitation.mutationOptions({ onSuccess: refresh }));
  return (
    <SectionCard
      data-testid="partner-invitations"
      title="Invitations"
      description={
        manage
          ? 'Invite someone by e-mail, with a role. Encore sends no mail: pass the one-time link on yourself. It is valid for 7 days.'
          : "Pending invitations. Only the partner's owner invites, with a one-time link valid for 7 days."
      }
    >
      {manage && <InviteForm partnerId={partnerId} refresh={refresh} />}
      <PendingInvitations
        invitations={invitations}
        roleName={roleName}
        revokingId={revoke.isPending ? (revoke.variables?.invitationId ?? null) : null}
        onRevoke={manage ? (invitationId) => revoke.mutate({ partnerId, invitationId }) : null}
      />
    </SectionCard>
  );
}

/** The owner's invitation: e-mail and role (Viewer unless chosen), then the one-time link. */
function InviteForm({ partnerId, refresh }: { partnerId: string; refresh: () => Promise<unknown> }) {
  const trpc = useTRPC();
  // Each sent invitation starts a fresh (empty) form.
  const [round, setRound] = useState(0);
  const invite = useMutation(
    trpc.partnerUsers.invite.mutationOptions({
      gcTime: 0, // the link lives only in this component's state
      onSuccess: () => {
        setRound((n) => n + 1);
        return refresh();
      },
    }),
  );
  const emailError = fieldErrors(invite.error).email ?? null;
  return (
    <div className="card-body">
      <InvitationLink made={invite.data} roleName={roleName} onDone={() => invite.reset()} />
      <ActionForm
        key={round}
        aria-label="Invite a user"
        onSubmit={(values) => {
          const role = values.text('role');
          invite.mutate({ partnerId, email: values.text('email'), role: isPartnerRole(role) ? role : 'viewer' });
        }}
        error={invite.error}
        errorAtField={Boolean(emailError)}
      >
        <Field label="E-mail" name="email" type="email" required error={emailError} />
        <PartnerRoleSelect defaultValue="viewer" />
        <FormActions submit="Invite" pending={invite.isPending} pendingLabel="Inviting…" />
      </ActionForm>
    </div>
  );
}
