'use client';

import { type ChangeEvent, useCallback, useRef, useState } from 'react';

type Input = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * A field whose value something on the page follows as it is typed (a live preview, a field shown only
 * for one choice), kept uncontrolled like every other field: the state starts from what the field holds
 * when the page hydrates (a person may have typed before the scripts arrived) and follows its changes.
 * Spread `field` on the input; `set` changes both (a "use this value" button).
 */
export function useTypedValue<E extends Input = HTMLInputElement>(initial: string) {
  const [value, setValue] = useState(initial);
  const element = useRef<E | null>(null);
  const ref = useCallback((el: E | null) => {
    element.current = el;
    if (el) setValue(el.value);
  }, []);
  return {
    value,
    set: (next: string) => {
      if (element.current) element.current.value = next;
      setValue(next);
    },
    field: {
      ref,
      defaultValue: initial,
      onChange: (e: ChangeEvent<E>) => setValue(e.target.value),
    },
  };
}
