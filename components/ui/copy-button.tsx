'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';

/**
 * Copies a text to the clipboard and says so for a moment (announced to screen readers too): `value`, or
 * the text of the element whose id is `target` (a long code block is then not sent to the page twice).
 */
export function CopyButton({
  label = 'Copy',
  what,
  ...source
}: ({ value: string; target?: never } | { target: string; value?: never }) & { label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    const element = source.target === undefined ? null : document.getElementById(source.target);
    try {
      await navigator.clipboard.writeText(source.value ?? element?.textContent ?? '');
      setState('copied');
    } catch {
      // No clipboard permission (e.g. plain http on another host): the value stays selectable, and a
      // target is selected for the keyboard's own copy.
      if (element) window.getSelection()?.selectAllChildren(element);
      setState('failed');
    }
  }

  return (
    <Button size="sm" onClick={copy} aria-label={what ? `${label} ${what}` : label}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}</span>
    </Button>
  );
}
