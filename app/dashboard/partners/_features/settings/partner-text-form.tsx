'use client';

import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Field, type FieldProps } from '@/components/ui/field';
import { fieldErrors } from '@/components/trpc/errors';
import type { AppRouter } from '@/server/trpc/router';
import { useOnStored } from './use-on-stored';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/** A mutation of the partner (useMutation's result), which answers the partner as stored. */
interface Saving<T> {
  mutate: (input: T & { partnerId: string }, options: { onSuccess: (next: Partner) => void }) => void;
  error: unknown;
  isPending: boolean;
}

/**
 * One of the partner's short forms (its name, its logo, its support contact): a few text fields saved
 * together, showing what was stored once saved. At most three fields: longer forms use react-hook-form.
 */
export function PartnerTextForm<T extends Record<string, string>>({
  partner,
  label,
  submit,
  valuesOf,
  fields,
  saving,
}: {
  partner: Partner;
  /** The form's name for screen readers ("Rename partner"). */
  label: string;
  submit: string;
  /** The fields' values as stored ('' for none). */
  valuesOf: (partner: Partner) => T;
  fields: (Omit<FieldProps, 'name' | 'value' | 'defaultValue' | 'onChange' | 'error'> & { name: keyof T & string })[];
  saving: NoInfer<Saving<T>>;
}) {
  const onStored = useOnStored(partner.id);
  // What is stored (the fields' defaults; they show it again once saved, through the new keys).
  const [stored, setStored] = useState(() => valuesOf(partner));
  const [saved, setSaved] = useState(false);
  const errors = fieldErrors(saving.error);

  return (
    <ActionForm
      aria-label={label}
      onSubmit={(form) => {
        setSaved(false);
        const values = Object.fromEntries(fields.map((f) => [f.name, form.text(f.name)])) as T;
        saving.mutate(
          { ...values, partnerId: partner.id },
          {
            onSuccess: (next) => {
              onStored(next);
              setStored(valuesOf(next));
              setSaved(true);
            },
          },
        );
      }}
      error={saving.error}
      errorAtField={fields.some((f) => errors[f.name])}
    >
      {fields.map(({ name, ...field }) => (
        <Field
          key={`${name}:${stored[name]}`}
          name={name}
          {...field}
          defaultValue={stored[name]}
          onChange={() => setSaved(false)}
          error={errors[name] ?? null}
        />
      ))}
      <FormActions submit={submit} pending={saving.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}
