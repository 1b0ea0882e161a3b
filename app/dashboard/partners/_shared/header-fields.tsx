import { Field } from '@/components/ui/field';
import layout from './form-layout.module.css';

/**
 * A header Encore sends with its calls to the partner (integration's auth header, the webhooks'
 * secret header): its name, and its value, a write-only secret of which only a hint comes back.
 * The inputs are named `${prefix}Name` and `${prefix}Value`, as the API's fields.
 */
export function HeaderFields({
  prefix,
  placeholder,
  maxLength,
  name,
  value,
  onName,
  onValue,
  errors,
  disabled = { name: false, value: false },
  nameHint,
  stored,
}: {
  prefix: 'authHeader' | 'secretHeader';
  placeholder: string;
  maxLength: { name: number; value: number };
  name: string;
  value: string;
  onName: (name: string) => void;
  onValue: (value: string) => void;
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
        name={`${prefix}Name`}
        autoComplete="off"
        placeholder={placeholder}
        maxLength={maxLength.name}
        value={name}
        disabled={disabled.name}
        onChange={(e) => onName(e.target.value)}
        error={errors.name}
        hint={nameHint}
      />
      <Field
        label="Header value"
        name={`${prefix}Value`}
        type="password"
        autoComplete="new-password"
        maxLength={maxLength.value}
        value={value}
        disabled={disabled.value}
        onChange={(e) => onValue(e.target.value)}
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
