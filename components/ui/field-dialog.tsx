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
  /** The field (uncontrolled: its value is read from the form when it is submitted). */
  field: FieldProps & { name: string };
  submit: ReactNode;
  pending: boolean;
  pendingLabel?: string;
  /** The failed call. */
  error?: unknown;
  /** With what the field holds. */
  onSubmit: (value: string) => void;
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
      <ActionForm
        aria-label={formLabel}
        onSubmit={(values) => onSubmit(values.text(field.name))}
        error={error}
        errorAtField={Boolean(field.error)}
      >
        <Field data-autofocus {...field} />
        <FormActions submit={submit} pending={pending} pendingLabel={pendingLabel} onCancel={onCancel} />
      </ActionForm>
    </Dialog>
  );
}
