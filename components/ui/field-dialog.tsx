'use client';

import type { ReactNode } from 'react';
import { ActionForm, FormActions } from './action-form';
import { Dialog, type DialogProps } from './dialog';
import { Field, type FieldProps } from './field';

/**
 * A dialog that asks for one value before an action (a key's label, a refund's reason): the field
 * (focused first), the call's error above it unless the field shows it, then Cancel and submit. Escape,
 * a click outside and Cancel close it, except while the action runs.
 */
export function FieldDialog({
  open,
  title,
  description,
  role,
  formLabel,
  field,
  submit,
  pending,
  pendingLabel,
  error,
  onSubmit,
  onCancel,
}: Pick<DialogProps, 'open' | 'title' | 'description' | 'role'> & {
  formLabel?: string;
  field: FieldProps;
  submit: ReactNode;
  pending: boolean;
  pendingLabel?: string;
  /** The failed call. */
  error?: unknown;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      description={description}
      role={role}
      onClose={() => {
        if (!pending) onCancel();
      }}
    >
      <ActionForm aria-label={formLabel} onSubmit={onSubmit} error={error} errorAtField={Boolean(field.error)}>
        <Field data-autofocus {...field} />
        <FormActions submit={submit} pending={pending} pendingLabel={pendingLabel} onCancel={onCancel} />
      </ActionForm>
    </Dialog>
  );
}
