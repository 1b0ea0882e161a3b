import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cache } from 'react';
import { makeQueryClient } from '@/components/trpc/query-client';
import { createTRPCContext } from './init';
import { appRouter } from './router';

/**
 * tRPC for server components: procedures are called in-process (no HTTP hop) with the same context
 * and middlewares as the HTTP endpoint. One QueryClient per request (React's cache), whose prefetched
 * queries <HydrateClient> hands to the client components below it.
 */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: createTRPCContext,
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: React.ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
