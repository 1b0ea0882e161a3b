import Form from 'next/form';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';

/**
 * A filter of one choice, sent as a GET to `action` (the server page reads it from the query string)
 * with `keep`'s parameters (another section's filter and page) carried along. The select is keyed by
 * the value, so after a navigation it shows the value of the page it is on.
 */
export function SelectFilter({
  action,
  label,
  fieldLabel,
  name,
  value,
  all,
  options,
  keep = {},
}: {
  action: string;
  /** The form's name for screen readers ("Filter sales"). */
  label: string;
  fieldLabel: string;
  name: string;
  value: string | undefined;
  /** The first option's text, the one that filters nothing ("All states"). */
  all: string;
  options: readonly { value: string; label: string }[];
  keep?: Record<string, string | undefined>;
}) {
  return (
    <Form action={action} className="toolbar" aria-label={label}>
      {Object.entries(keep).map(([key, kept]) =>
        kept ? <input key={key} type="hidden" name={key} value={kept} /> : null,
      )}
      <SelectField label={fieldLabel} name={name} defaultValue={value ?? ''} key={value ?? 'all'}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
      <Button type="submit">Apply</Button>
    </Form>
  );
}
