import { Alert } from './alert';
import { Button } from './button';
import { CopyButton } from './copy-button';

/** A one-time secret (an API key) with a copy button. Callers say that it will not be shown again. */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret">
      <span className="secret-label">{label}</span>
      <div className="secret-row">
        <code className="secret-value" data-testid="secret-value">
          {value}
        </code>
        <CopyButton value={value} what={label} />
      </div>
    </div>
  );
}

/**
 * A secret just created and shown this once (a key, a signing secret, an invitation link): what it
 * is and that it will not be shown again (`title`, `children`), the value to copy, and a button that
 * puts it away.
 */
export function OneTimeSecret({
  title,
  children,
  label,
  value,
  onDone,
}: {
  title: string;
  children: React.ReactNode;
  label: string;
  value: string;
  onDone: () => void;
}) {
  return (
    <>
      <Alert tone="success" title={title}>
        {children}
      </Alert>
      <SecretReveal label={label} value={value} />
      <div className="form-actions">
        <Button size="sm" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </>
  );
}
