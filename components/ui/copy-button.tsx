'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';

/** Copies `value` to the clipboard and says so for a moment (announced to screen readers too). */
export function CopyButton({ value, label = 'Copy', what }: { value: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // No clipboard permission (e.g. plain http on another host): the value stays selectable.
      setState('failed');
    }
  }

  return (
    <Button size="sm" onClick={copy} aria-label={what ? `${label} ${what}` : label}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}</span>
    </Button>
  );
}
