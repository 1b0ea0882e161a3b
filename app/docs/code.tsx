import { useId } from 'react';
import { CopyButton } from '@/components/ui/copy-button';

export const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * A code block under its caption, with a button that copies it. The block scrolls inside itself, so the
 * page never scrolls sideways on a phone; it takes the keyboard's focus for that scroll, named by the caption.
 */
export function Code({ children, label }: { children: string; label: string }) {
  const id = useId();
  return (
    <div className="docs-code">
      <div className="docs-code-bar">
        <span id={`${id}label`} className="docs-code-label">
          {label}
        </span>
        <CopyButton target={`${id}code`} what={label} />
      </div>
      <pre id={`${id}code`} tabIndex={0} aria-labelledby={`${id}label`}>
        <code>{children}</code>
      </pre>
    </div>
  );
}
