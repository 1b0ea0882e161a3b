import { serve } from 'inngest/next';
import { inngestConfigured } from './client';
import { getInngest, inngestFunctions } from './inngest';
import { allJobs } from './registry';

type Handler = (req: Request, ctx: unknown) => Promise<Response>;

/** The /api/inngest handlers; a plain 404 while Inngest is not configured (the local provider runs jobs). */
export function inngestServeHandlers(): { GET: Handler; POST: Handler; PUT: Handler } {
  let handlers: ReturnType<typeof serve> | undefined;
  const get = () =>
    (handlers ??= serve({ client: getInngest(), functions: inngestFunctions(getInngest(), allJobs()) }));
  const wrap =
    (method: 'GET' | 'POST' | 'PUT'): Handler =>
    async (req, ctx) => {
      if (!inngestConfigured()) {
        return Response.json(
          { error: 'Inngest is not configured; background jobs run on the local provider' },
          { status: 404 },
        );
      }
      return get()[method](req as never, ctx);
    };
  return { GET: wrap('GET'), POST: wrap('POST'), PUT: wrap('PUT') };
}
