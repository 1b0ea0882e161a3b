import { runTestHook } from '@/server/http/test-hooks';

export const dynamic = 'force-dynamic';

/** Test-only set-up calls; a 404 unless TEST_HOOKS_SECRET is set and sent (server/http/test-hooks.ts). */
export async function POST(req: Request, ctx: { params: Promise<{ action: string }> }): Promise<Response> {
  return runTestHook((await ctx.params).action, req);
}
