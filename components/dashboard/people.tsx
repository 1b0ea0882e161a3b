'use client';

import type { ReactNode } from 'react';
import { ActionForm, FormActions, type FormValues } from '@/components/ui/action-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';

/**
 * The controls Encore's staff page and a partner's Team page share for the people of an account: remove one
 * (a button, then a confirmation), change one's role (a button, then a dialog with the roles' select). Each
 * page owns its mutation and its roles; these own the wording and the dialogs.
 */

/** "Remove" on a person's row: opens the confirmation (RemovePersonDialog). */
export function RemovePersonButton({ email, onClick }: { email: string; onClick: () => void }) {
  return (
    <Button size="sm" variant="ghost" className="btn-danger-text" aria-label={`Remove ${email}`} onClick={onClick}>
      Remove
    </Button>
  );
}

/** The confirmation before a person is removed; `person` null keeps it closed. */
export function RemovePersonDialog({
  person,
  confirmLabel,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  person: { email: string } | null;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={person !== null}
      title={`Remove ${person?.email ?? ''}?`}
      description={<p>They are signed out at once and can no longer sign in. You can invite them again later.</p>}
      confirmLabel={confirmLabel}
      pendingLabel="Removing…"
      pending={pending}
      error={error}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}

/** "Change role" on a person's row and its dialog: `children` is the roles' select; the server's refusal shows in it. */
export function ChangeRoleDialog({
  email,
  open,
  setOpen,
  mutation,
  onSubmit,
  children,
}: {
  email: string;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The page's change-role mutation: its state shows in the dialog; opening the dialog resets it. */
  mutation: { isPending: boolean; error: unknown; reset: () => void };
  onSubmit: (values: FormValues) => void;
  children: ReactNode;
}) {
  const pending = mutation.isPending;
  const onClose = () => setOpen(false);
  const onOpen = () => {
    mutation.reset();
    setOpen(true);
  };
  return (
    <>
      <Button size="sm" variant="ghost" aria-label={`Change the role of ${email}`} onClick={onOpen}>
        Change role
      </Button>
      <Dialog
        open={open}
        title={`Change the role of ${email}`}
        description={<p>The new role holds from their next click; they stay signed in.</p>}
        onClose={() => {
          if (!pending) onClose();
        }}
      >
        <ActionForm aria-label={`Role of ${email}`} onSubmit={onSubmit} error={mutation.error}>
          {children}
          <FormActions submit="Change role" pending={pending} pendingLabel="Changing…" onCancel={onClose} />
        </ActionForm>
      </Dialog>
    </>
  );
}

interface Invitation<R extends string> {
  id: string;
  email: string;
  role: R;
  createdAt: Date | string;
  expiresAt: Date | string;
}

/** The pending invitations; with `onRevoke` (whoever may invite) each has "Revoke". Empty: a note for readers only. */
export function PendingInvitations<R extends string>({
  invitations,
  roleName,
  revokingId,
  onRevoke,
}: {
  invitations: Invitation<R>[];
  roleName: (role: R) => string;
  revokingId: string | null;
  onRevoke: ((invitationId: string) => void) | null;
}) {
  if (invitations.length === 0) {
    return onRevoke ? null : (
      <div className="card-body">
        <p className="muted">No pending invitations.</p>
      </div>
    );
  }
  return (
    <Table
      label="Pending invitations"
      columns={['E-mail', 'Role', 'Invited', 'Expires', ...(onRevoke ? [ACTIONS_COLUMN] : [])]}
    >
      {invitations.map((i) => (
        <tr key={i.id} data-invitation-email={i.email}>
          <td>{i.email}</td>
          <td>{roleName(i.role)}</td>
          <td>
            <Time value={i.createdAt} />
          </td>
          <td>
            <Time value={i.expiresAt} />
          </td>
          {onRevoke && (
            <td className="actions">
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Revoke the invitation for ${i.email}`}
                pending={revokingId === i.id}
                onClick={() => onRevoke(i.id)}
              >
                Revoke
              </Button>
            </td>
          )}
        </tr>
      ))}
    </Table>
  );
}

/** The one-time link of the invitation just made (shown once), or nothing. */
export function InvitationLink<R extends string>({
  made,
  roleName,
  onDone,
}: {
  made: { token: string; invitation: { email: string; role: R; expiresAt: Date | string } } | undefined;
  roleName: (role: R) => string;
  onDone: () => void;
}) {
  if (!made || typeof window === 'undefined') return null;
  const link = `${window.location.origin}/invite/${encodeURIComponent(made.token)}`;
  return (
    <OneTimeSecret
      title={`Invitation for ${made.invitation.email} (${roleName(made.invitation.role)}) created. Copy the link now.`}
      label="Invitation link"
      value={link}
      onDone={onDone}
    >
      It is shown once and works once, until <Time value={made.invitation.expiresAt} />.
    </OneTimeSecret>
  );
}
