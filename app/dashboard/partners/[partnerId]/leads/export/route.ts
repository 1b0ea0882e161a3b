import { csvResponse } from '@/server/lib/csv';
import { getDb } from '@/db';
import { staffRouteRefusal } from '@/server/auth/session';
import { AppError } from '@/server/lib/errors';
import { leadsCsv } from '@/server/modules/market-data';
import { getPartner } from '@/server/modules/partners';

/** The partner's leads (optionally one event's) as CSV, for staff whose role may take figures away (`money`: admin, finance); streamed a page at a time. */
export async function GET(req: Request, ctx: { params: Promise<{ partnerId: string }> }) {
  const refused = await staffRouteRefusal('money');
  if (refused) return refused;
  const { partnerId } = await ctx.params;
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
