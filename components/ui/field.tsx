import { type ComponentProps, useId } from 'react';

export interface FieldProps extends ComponentProps<'input'> {
  label: string;
  hint?: React.ReactNode;
  /** A message shown under the input and announced to screen readers; marks the input invalid. */
  error?: string | null;
}

/** A labelled input with its hint and error wired up through aria attributes. */
export function Field({ label, hint, error, id, className, ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className="field-label">
        {label}
        {!input.required && <span className="field-optional"> (optional)</span>}
      </label>
      <input
        id={inputId}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A field for a URL of the partner's servers: the URL keyboard on phones, no autofill. */
export function UrlField(props: FieldProps) {
  return <Field type="url" inputMode="url" autoComplete="off" {...props} />;
}

export function Input({ className, ...rest }: ComponentProps<'input'>) {
  return <input className={['input', className ?? ''].filter(Boolean).join(' ')} {...rest} />;
}

/** A labelled <select>; the options are its children. */
export function SelectField({
  label,
  id,
  className,
  children,
  ...select
}: ComponentProps<'select'> & { label: string }) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={selectId} className="field-label">
        {label}
      </label>
      <select id={selectId} className="input" {...select}>
        {children}
      </select>
    </div>
  );
}
