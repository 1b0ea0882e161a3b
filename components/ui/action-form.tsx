import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { ErrorAlert } from './alert';
import { Button } from './button';

/**
 * What a form holds when it is submitted, read from the form itself: the app's forms are uncontrolled
 * (`name` + `defaultValue`), so what a person typed before the page's scripts arrived is what is sent.
 */
export class FormValues {
  constructor(private readonly data: FormData) {}

  /** The text of a field (an input, select or textarea), '' when it is absent. */
  text(name: string): string {
    const value = this.data.get(name);
    return typeof value === 'string' ? value : '';
  }

  /** Every value sent under a name (checkboxes sharing it, a multiple select). */
  all(name: string): string[] {
    return this.data.getAll(name).filter((v): v is string => typeof v === 'string');
  }

  /** Whether a checkbox of that name was ticked (a ticked box sends its value, an unticked one nothing). */
  checked(name: string): boolean {
    return this.data.has(name);
  }
}

/** A form's values as they stand in the page now (for a button outside the submit path). */
function valuesOf(form: HTMLFormElement, submitter?: HTMLElement | null): FormValues {
  return new FormValues(new FormData(form, submitter ?? undefined));
}

/**
 * A form that runs an action (a tRPC mutation) instead of navigating: its values are read from the form
 * when it is submitted (never from state a hydrating page had not seen), no browser validation bubbles
 * (the server's messages show at the fields), and the call's error above the fields unless a field shows
 * it.
 *
 * Before the page's scripts have run, a submit is not lost either: the form's `action` is a function, so
 * React's server render makes the page queue the submit with what the form held and replays it once the
 * form is live. Once live, `onSubmit` handles it (and React does not reset the fields, which it would after
 * an action: a refused value stays to be corrected). Without JavaScript the form says it needs it.
 */
export function ActionForm({
  onSubmit,
  error,
  errorAtField,
  className = 'form',
  children,
  ...rest
}: Omit<ComponentProps<'form'>, 'onSubmit' | 'action'> & {
  onSubmit: (values: FormValues) => void;
  error?: unknown;
  /** The error's message is shown at a field: no alert for it. */
  errorAtField?: boolean;
}) {
  return (
    <form
      className={className}
      noValidate
      action={(data) => onSubmit(new FormValues(data))}
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        onSubmit(valuesOf(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter));
      }}
      {...rest}
    >
      <NeedsJavaScript />
      <ErrorAlert error={error} shownElsewhere={errorAtField} />
      {children}
    </form>
  );
}

/** Shown only when the browser runs no scripts: the staff forms work through them. */
function NeedsJavaScript() {
  return (
    <noscript>
      <p className="alert alert-warning" data-testid="needs-javascript">
        This form needs JavaScript. Turn it on in your browser and reload the page.
      </p>
    </noscript>
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
