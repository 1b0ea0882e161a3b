'use client';

import { ErrorAlert } from './alert';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  /** 'danger' for irreversible actions such as revoking a key. */
  tone?: 'danger' | 'primary';
  pending?: boolean;
  /** The failed call, shown in the dialog (what it says: see errorMessage). */
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action. Focus starts on Cancel, so Enter right away never confirms by accident. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  tone = 'danger',
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      description={description}
      onClose={pending ? () => {} : onCancel}
      role="alertdialog"
    >
      <ErrorAlert error={error} />
      <div className="dialog-actions">
        <Button onClick={onCancel} disabled={pending} data-autofocus>
          Cancel
        </Button>
        <Button variant={tone} onClick={onConfirm} pending={pending} pendingLabel={pendingLabel}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
