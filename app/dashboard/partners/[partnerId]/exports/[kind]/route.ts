import { csvResponse } from '@/server/lib/csv';
import { getDb } from '@/db';
import { partnerRouteRefusal } from '@/server/auth/session';
import { AppError } from '@/server/lib/errors';
import { isMoneyExportKind, MONEY_EXPORT_KINDS, moneyCsv, periodOf } from '@/server/modules/ops';
import { getPartner } from '@/server/modules/partners';

/**
 * A partner's listings, purchases, payouts or refunds of a period (`from`, `to`: YYYY-MM-DD, UTC days,
 * inclusive) as CSV, for staff whose role may take figures away (`money`: admin, finance) and the partner's own
 * users (`read`; another partner is a 404 to them); streamed a page at a time.
 */
export async function GET(req: Request, ctx: { params: Promise<{ partnerId: string; kind: string }> }) {
  const { partnerId, kind } = await ctx.params;
  const refused = await partnerRouteRefusal(partnerId, 'money', 'read');
  if (refused) return refused;
  if (!isMoneyExportKind(kind)) {
    return new Response(`No such export: ${kind.slice(0, 50)}. Exports: ${MONEY_EXPORT_KINDS.join(', ')}.`, {
      status: 404,
    });
  }
  const query = new URL(req.url).searchParams;
  let period;
  try {
    await getPartner(partnerId, getDb());
    period = periodOf({ from: query.get('from') ?? '', to: query.get('to') ?? '' });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return new Response('No such partner.', { status: 404 });
    // The message names the field (from, to).
    if (err instanceof AppError && err.code === 'BAD_REQUEST') return new Response(err.message, { status: 400 });
    throw err;
  }
  return csvResponse(
    moneyCsv(kind, partnerId, period, getDb()),
    `${kind}-${partnerId}-${period.from}-${period.to}.csv`,
  );
}
