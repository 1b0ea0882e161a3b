export const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** A code block that scrolls inside itself, so the page never scrolls sideways on a phone. */
export function Code({ children, label }: { children: string; label?: string }) {
  return (
    <pre className="docs-code" tabIndex={0} aria-label={label}>
      <code>{children}</code>
    </pre>
  );
}
