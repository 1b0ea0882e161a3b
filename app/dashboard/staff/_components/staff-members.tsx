'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
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
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { EndSessionsButton } from './end-sessions';

interface MemberRef {
  id: string;
  email: string;
}

/** Staff members and pending invitations: invite (link shown once), revoke an invitation, remove a member. */
export function StaffMembers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.staff.list.queryOptions());
  // Each sent invitation starts a fresh (empty) form.
  const [inviteRound, setInviteRound] = useState(0);
  const [removing, setRemoving] = useState<MemberRef | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.staff.list.queryKey() });
  const invite = useMutation(
    trpc.staff.invite.mutationOptions({
      gcTime: 0, // the link lives only in this component's state
      onSuccess: () => {
        setInviteRound((n) => n + 1);
        return refresh();
      },
    }),
  );
  const revokeInvitation = useMutation(trpc.staff.revokeInvitation.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.staff.remove.mutationOptions({
      onSuccess: () => {
        setRemoving(null);
        return refresh();
      },
    }),
  );
  const emailError = fieldErrors(invite.error).email ?? null;
  const lastMember = data.items.length <= 1;
  const admin = data.items.find((m) => m.id === data.currentStaffId)?.role === 'admin';
  const inviteLink =
    invite.data && typeof window !== 'undefined'
      ? `${window.location.origin}/invite/${encodeURIComponent(invite.data.token)}`
      : null;

  return (
    <>
      <SectionCard data-testid="staff-members" title="Members">
        <Table label="Staff members" columns={['E-mail', 'Name', 'Role', 'Last sign-in', ACTIONS_COLUMN]}>
          {data.items.map((m) => (
            <tr key={m.id} data-staff-email={m.email}>
              <td>
                {m.email} {m.id === data.currentStaffId && <Badge>You</Badge>}
              </td>
              <td>{m.name || <span className="muted">—</span>}</td>
              <td>{m.role === 'admin' ? 'Admin' : 'Staff'}</td>
              <td>
                <Time value={m.lastSignInAt} fallback="Never" />
              </td>
              <td className="actions">
                {(admin || m.id === data.currentStaffId) && (
                  <EndSessionsButton member={m} self={m.id === data.currentStaffId} />
                )}
                {m.id !== data.currentStaffId && !lastMember && (
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
          ))}
        </Table>
      </SectionCard>

      <SectionCard
        data-testid="staff-invitations"
        title="Invitations"
        description="Invite someone by e-mail. Encore sends no mail: pass the one-time link on yourself. It is valid for 7 days."
      >
        <div className="card-body">
          {invite.data && inviteLink && (
            <OneTimeSecret
              title={`Invitation for ${invite.data.invitation.email} created. Copy the link now.`}
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
            onSubmit={(values) => invite.mutate({ email: values.text('email') })}
            error={invite.error}
            errorAtField={Boolean(emailError)}
          >
            <Field label="E-mail" name="email" type="email" required error={emailError} />
            <FormActions submit="Invite" pending={invite.isPending} pendingLabel="Inviting…" />
          </ActionForm>
        </div>
        {data.invitations.length > 0 && (
          <Table label="Pending invitations" columns={['E-mail', 'Invited', 'Expires', ACTIONS_COLUMN]}>
            {data.invitations.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>
                  <Time value={i.createdAt} />
                </td>
                <td>
                  <Time value={i.expiresAt} />
                </td>
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
              </tr>
            ))}
          </Table>
        )}
      </SectionCard>

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
    </>
  );
}
