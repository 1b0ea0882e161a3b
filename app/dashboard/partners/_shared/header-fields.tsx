import type { ComponentProps } from 'react';
import { Field } from '@/components/ui/field';
import layout from './form-layout.module.css';

/**
 * A header Encore sends with its calls to the partner (integration's auth header, the webhooks'
 * secret header): its name, and its value, a write-only secret of which only a hint comes back.
 * The inputs are named `${prefix}Name` and `${prefix}Value`, as the API's fields; `inputs` wires them
 * to the form (react-hook-form's `register`).
 */
export function HeaderFields({
  prefix,
  placeholder,
  maxLength,
  inputs,
  errors,
  disabled = { name: false, value: false },
  nameHint,
  stored,
}: {
  prefix: 'authHeader' | 'secretHeader';
  placeholder: string;
  maxLength: { name: number; value: number };
  inputs: { name: ComponentProps<'input'>; value: ComponentProps<'input'> };
  errors: { name: string | null; value: string | null };
  disabled?: { name: boolean; value: boolean };
  nameHint?: string;
  /** A value is stored: its hint ("ends in …"), or true without one; false when none is. */
  stored: string | boolean;
}) {
  return (
    <div className={layout.twoColumns}>
      <Field
        label="Header name"
        autoComplete="off"
        placeholder={placeholder}
        maxLength={maxLength.name}
        {...inputs.name}
        name={`${prefix}Name`}
        disabled={disabled.name}
        error={errors.name}
        hint={nameHint}
      />
      <Field
        label="Header value"
        type="password"
        autoComplete="new-password"
        maxLength={maxLength.value}
        {...inputs.value}
        name={`${prefix}Value`}
        disabled={disabled.value}
        error={errors.value}
        placeholder={stored ? 'Stored: leave empty to keep' : undefined}
        hint={
          stored
            ? `A value is stored${typeof stored === 'string' ? ` (${stored})` : ''}. Type a new one to replace it.`
            : 'No value stored.'
        }
      />
    </div>
  );
}
