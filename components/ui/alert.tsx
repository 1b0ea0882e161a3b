import { errorMessage } from '@/components/trpc/errors';

type Tone = 'error' | 'warning' | 'info' | 'success';

/** A message box. Errors use role="alert" so screen readers announce them when they appear. */
export function Alert({ tone = 'info', title, children }: { tone?: Tone; title?: string; children?: React.ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <p className="alert-title">{title}</p>}
      {children && <div className="alert-body">{children}</div>}
    </div>
  );
}

/** What a failed call says, in an error alert; nothing without an error, or when a field or a dialog already shows it. */
export function ErrorAlert({ error, shownElsewhere = false }: { error: unknown; shownElsewhere?: boolean }) {
  if (!error || shownElsewhere) return null;
  return <Alert tone="error">{errorMessage(error)}</Alert>;
}
