import { Field, type FieldProps } from '@/components/ui/field';

/** Hours before the show a code unlocks (0 to 720), as the partner's default and as an event's or show's override. */
export function UnlockHoursField(props: Omit<FieldProps, 'label'>) {
  return (
    <Field
      label="Unlock (hours before the show)"
      name="unlockHours"
      type="number"
      inputMode="numeric"
      min={0}
      max={720}
      step={1}
      {...props}
    />
  );
}
