import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldError,
  type FieldErrors,
  type FieldValues,
  get,
  type Resolver,
  type UseFormProps,
  type UseFormRegister,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrors } from '@/components/trpc/errors';

/** Messages per field, as the form's own checks give them. */
export type FormProblems = Record<string, string | undefined>;

function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if ('message' in error && typeof error.message === 'string' && error.message) return error.message;
  for (const nested of Object.values(error)) {
    const message = firstMessage(nested);
    if (message) return message;
  }
  return undefined;
}

/**
 * Checks a dashboard form with the API's own input schema (server/modules/<m>/schemas.ts), so the form
 * says before the call what the server would answer, in the same words. `toInput` turns what was typed
 * into the call's input; `check` adds what only the form can get wrong (a blank row, text in a number
 * field) and wins over the schema, as it did when it ran before the call. A message lands on the form
 * field named like the input's top-level field: the key the server's field errors use too (a nested
 * problem, e.g. one entry of a map, shows at its field).
 */
export function apiResolver<TForm extends FieldValues, TSchema extends z.ZodType<unknown, FieldValues>>(
  schema: TSchema,
  toInput: (values: TForm) => z.input<TSchema>,
  check?: (values: TForm) => FormProblems,
): Resolver<TForm> {
  const bySchema = zodResolver(schema, undefined, { raw: true });
  return async (values, context, options) => {
    const result = await bySchema(toInput(values), context, {
      ...options,
      fields: {},
      shouldUseNativeValidation: false,
    } as Parameters<typeof bySchema>[2]);
    const errors: Record<string, FieldError> = {};
    for (const [field, error] of Object.entries(result.errors)) {
      const message = firstMessage(error);
      if (message) errors[field] = { type: 'validate', message };
    }
    for (const [field, message] of Object.entries(check?.(values) ?? {})) {
      if (message) errors[field] = { type: 'validate', message };
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as FieldErrors<TForm> };
    return { values, errors: {} };
  };
}

/**
 * The message to show at each field: the form's check first, else the server's answer to the last
 * call (checks the schema cannot make, e.g. a URL lookup). `atField` is whether the server's error
 * is shown at a field, so the form shows no alert for it.
 */
export function fieldMessages<TForm extends FieldValues>(formErrors: FieldErrors<TForm>, callError: unknown) {
  const server = fieldErrors(callError);
  return {
    errorOf: (field: string): string | null => firstMessage(formErrors[field]) ?? server[field] ?? null,
    atField: Object.values(server).some(Boolean),
  };
}

/** What a field holds in the page: its text, or whether a checkbox is ticked. */
function heldValue(el: unknown): string | boolean | undefined {
  if (el instanceof HTMLInputElement) return el.type === 'checkbox' ? el.checked : el.value;
  if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) return el.value;
  return undefined;
}

/**
 * useForm as the dashboard's forms use it. Messages change on submit, not while typing (as when the
 * server gave them all). `register` also gives each input its starting value as its default, so the
 * server-rendered form shows the stored values before the page hydrates (react-hook-form alone fills
 * uncontrolled inputs only once it runs in the browser), and keeps what a person typed before the page
 * hydrated: react-hook-form writes its default into a field as it registers it, so what the field held
 * just before is given back to it (and to the form's values).
 */
export function useDashboardForm<TForm extends FieldValues>(props: UseFormProps<TForm>): UseFormReturn<TForm> {
  const form = useForm<TForm>({ reValidateMode: 'onSubmit', ...props });
  const register: UseFormRegister<TForm> = (name, options) => {
    const start: unknown = get(form.formState.defaultValues, name);
    const registered = form.register(name, options);
    return {
      ...registered,
      ...(typeof start === 'boolean' ? { defaultChecked: start } : { defaultValue: start }),
      ref: (el: unknown) => {
        const held = heldValue(el);
        registered.ref(el);
        if (held !== undefined && held !== heldValue(el)) {
          form.setValue(name, held as never, { shouldDirty: true });
        }
      },
    };
  };
  return { ...form, register };
}
