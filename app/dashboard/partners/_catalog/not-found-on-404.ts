import { TRPCError } from '@trpc/server';
import { notFound } from 'next/navigation';

/** For server pages: an unknown id (or another partner's) renders the route's not-found page. */
export function notFoundOn404(err: unknown): never {
  if (err instanceof TRPCError && err.code === 'NOT_FOUND') notFound();
  throw err;
}
