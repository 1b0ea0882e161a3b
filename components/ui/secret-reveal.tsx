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
