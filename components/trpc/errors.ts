import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/trpc/router';

/** A sentence to show for a failed call; network failures get a hint instead of a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    if (!error.data) return 'Could not reach the server. Check your connection and try again.';
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}

/** Per-field messages from input validation (see the errorFormatter in server/trpc/init.ts). */
export function fieldErrors(error: unknown): Record<string, string | undefined> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = (error as TRPCClientError<AppRouter>).data?.fieldErrors ?? {};
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v?.[0]]));
}
