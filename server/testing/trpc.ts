import { expect } from 'vitest';
import { z } from 'zod';

/** The zod issues of an input a tRPC procedure refused; the refusal must be a BAD_REQUEST caused by zod. */
export async function zodIssues(call: Promise<unknown>): Promise<z.core.$ZodIssue[]> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code: 'BAD_REQUEST' });
  const cause = (err as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(z.ZodError);
  return (cause as z.ZodError).issues;
}
