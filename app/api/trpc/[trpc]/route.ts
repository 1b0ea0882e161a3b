import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { log } from '@/server/lib/log';
import { createTRPCContext } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: createTRPCContext,
    // Answers can carry one-time secrets (new API keys): never cache them anywhere.
    responseMeta: () => ({ headers: new Headers({ 'cache-control': 'no-store' }) }),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        log.error('trpc call failed', { path, error: error.message, stack: error.stack });
    },
  });
}

export { handler as GET, handler as POST };
