import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
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
