'use client';

import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import superjson from 'superjson';
import type { AppRouter } from '@/server/trpc/router';
import { TRPCProvider } from './client';
import { makeQueryClient } from './query-client';

let browserQueryClient: QueryClient | undefined;

/** A session that ended mid-use sends the staff member back to sign-in, then here again. */
function signInAgainOnUnauthorized(error: unknown): void {
  if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED' && typeof window !== 'undefined') {
    const here = window.location.pathname + window.location.search;
    // A full load (not a router push) also drops the cached data of the ended session.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/signin?callbackUrl=${encodeURIComponent(here)}`);
  }
}

function getQueryClient(): QueryClient {
  // The server renders each request with a fresh client; the browser keeps one so the cache survives
  // suspense boundaries re-mounting.
  if (typeof window === 'undefined') return makeQueryClient();
  browserQueryClient ??= makeQueryClient({ onError: signInAgainOnUnauthorized });
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: '/api/trpc', transformer: superjson })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
