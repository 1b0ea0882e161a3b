'use client';

import { Alert } from './alert';
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
  error?: string | null;
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
      {error && <Alert tone="error">{error}</Alert>}
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
