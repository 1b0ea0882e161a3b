import { defaultShouldDehydrateQuery, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import superjson from 'superjson';

/**
 * One QueryClient recipe for the server (a fresh client per request) and the browser (one per tab).
 * Pending queries are dehydrated too, so a server component can start a fetch and stream its result
 * to the client component that suspends on it; superjson keeps Dates as Dates across that hop.
 */
export function makeQueryClient(opts: { onError?: (error: unknown) => void } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: opts.onError }),
    mutationCache: new MutationCache({ onError: opts.onError }),
    defaultOptions: {
      queries: {
        // Data from the server render is fresh for a moment, so the client does not refetch at once.
        staleTime: 30_000,
        retry: (failureCount, error) => failureCount < 2 && !isClientError(error),
      },
      dehydrate: {
        serializeData: superjson.serialize,
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === 'pending',
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}

/** 4xx answers will not change on retry. */
function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === 'number' && status >= 400 && status < 500;
}
