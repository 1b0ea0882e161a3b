'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { SecretReveal } from '@/components/ui/secret-reveal';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { errorMessage, fieldErrors } from '@/components/trpc/errors';

interface MemberRef {
  id: string;
  email: string;
}

/** Staff members and pending invitations: invite (link shown once), revoke an invitation, remove a member. */
export function StaffMembers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const membersHeading = useId();
  const inviteHeading = useId();
  const { data } = useSuspenseQuery(trpc.staff.list.queryOptions());
  const [email, setEmail] = useState('');
  const [removing, setRemoving] = useState<MemberRef | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.staff.list.queryKey() });
  const invite = useMutation(
    trpc.staff.invite.mutationOptions({
      gcTime: 0, // the link lives only in this component's state
      onSuccess: () => {
        setEmail('');
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
  const inviteLink =
    invite.data && typeof window !== 'undefined'
      ? `${window.location.origin}/invite/${encodeURIComponent(invite.data.token)}`
      : null;

  return (
    <>
      <Card aria-labelledby={membersHeading} data-testid="staff-members">
        <CardHeader headingId={membersHeading} title="Members" />
        <Table label="Staff members">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </Table>
      </Card>

      <Card aria-labelledby={inviteHeading} data-testid="staff-invitations">
        <CardHeader
          headingId={inviteHeading}
          title="Invitations"
          description="Invite someone by e-mail. Encore sends no mail: pass the one-time link on yourself. It is valid for 7 days."
        />
        <div className="card-body">
          {invite.data && inviteLink && (
            <>
              <Alert
                tone="success"
                title={`Invitation for ${invite.data.invitation.email} created. Copy the link now.`}
              >
                It is shown once and works once, until <Time value={invite.data.invitation.expiresAt} />.
              </Alert>
              <SecretReveal label="Invitation link" value={inviteLink} />
              <div className="form-actions">
                <Button size="sm" onClick={() => invite.reset()}>
                  I have copied it
                </Button>
              </div>
            </>
          )}
          <form
            className="form"
            noValidate
            aria-label="Invite a staff member"
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate({ email });
            }}
          >
            {invite.error && !emailError && <Alert tone="error">{errorMessage(invite.error)}</Alert>}
            <Field
              label="E-mail"
              name="email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={emailError}
            />
            <div className="form-actions">
              <Button type="submit" variant="primary" pending={invite.isPending} pendingLabel="Inviting…">
                Invite
              </Button>
            </div>
          </form>
        </div>
        {data.invitations.length > 0 && (
          <Table label="Pending invitations">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Invited</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </Table>
        )}
      </Card>

      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        description={<p>They are signed out at once and can no longer sign in. You can invite them again later.</p>}
        confirmLabel="Remove member"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ staffId: removing.id })}
      />
    </>
  );
}
