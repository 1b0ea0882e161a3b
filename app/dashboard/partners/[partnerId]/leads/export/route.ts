import { csvResponse } from '@/server/lib/csv';
import { getDb } from '@/db';
import { partnerRouteRefusal } from '@/server/auth/session';
import { AppError } from '@/server/lib/errors';
import { leadsCsv } from '@/server/modules/market-data';
import { getPartner } from '@/server/modules/partners';

/**
 * The partner's leads (optionally one event's) as CSV, for staff whose role may take figures away (`money`:
 * admin, finance) and the partner's own users (`read`; another partner is a 404 to them); streamed a page at a time.
 */
export async function GET(req: Request, ctx: { params: Promise<{ partnerId: string }> }) {
  const { partnerId } = await ctx.params;
  const refused = await partnerRouteRefusal(partnerId, 'money', 'read');
  if (refused) return refused;
  try {
    await getPartner(partnerId, getDb());
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return new Response('No such partner.', { status: 404 });
    throw err;
  }
  const eventRef = new URL(req.url).searchParams.get('event')?.trim().slice(0, 200) || undefined;
  const name = `leads-${partnerId}${eventRef ? `-${eventRef.replace(/[^\w.-]+/g, '_')}` : ''}.csv`;
  return csvResponse(leadsCsv(partnerId, eventRef, getDb()), name);
}
