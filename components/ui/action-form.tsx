import type { ComponentProps, ReactNode } from 'react';
import { ErrorAlert } from './alert';
import { Button } from './button';

/**
 * A form that runs an action (a tRPC mutation) instead of navigating: no browser validation bubbles
 * (the server's messages show at the fields), and the call's error above the fields unless a field
 * shows it.
 */
export function ActionForm({
  onSubmit,
  error,
  errorAtField,
  className = 'form',
  children,
  ...rest
}: Omit<ComponentProps<'form'>, 'onSubmit'> & {
  onSubmit: () => void;
  error?: unknown;
  /** The error's message is shown at a field: no alert for it. */
  errorAtField?: boolean;
}) {
  return (
    <form
      className={className}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      {...rest}
    >
      <ErrorAlert error={error} shownElsewhere={errorAtField} />
      {children}
    </form>
  );
}

/**
 * A form's buttons: submit (disabled with a spinner while the action runs), then any others, then a
 * short confirmation once it is done ("Saved."), announced to screen readers. In a dialog, `onCancel`
 * adds a Cancel button before submit, the dialogs' order.
 */
export function FormActions({
  submit,
  pending,
  pendingLabel = 'Saving…',
  done,
  onCancel,
  children,
}: {
  submit: ReactNode;
  pending: boolean;
  pendingLabel?: string;
  done?: string | null;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className={onCancel ? 'dialog-actions' : 'form-actions'}>
      {onCancel && (
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      )}
      <Button type="submit" variant="primary" pending={pending} pendingLabel={pendingLabel}>
        {submit}
      </Button>
      {children}
      {done && !pending && (
        <span role="status" className="muted">
          {done}
        </span>
      )}
    </div>
  );
}
