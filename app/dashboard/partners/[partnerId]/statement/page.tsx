import type { Metadata } from 'next';
import { param } from '@/components/ui/search-params';
import { memberMay } from '@/server/lib/staff-roles';
import { periodInput, thisWeek } from '@/server/modules/ops';
import { trpc } from '@/server/trpc/server';
import { Exports, PayoutsByState, PeriodForm, ReconciliationTable } from '../../../money/money-sections';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { statementPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Fees and payouts' };

/**
 * One partner's fees and payouts for a period (default this week): its captured payments against payouts,
 * Encore's and its own fees and refunds, its payouts by state, and the CSV exports. Encore's staff (the
 * exports: `money`) and the partner's own users (`read`, the exports too).
 */
export default async function StatementPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const week = thisWeek();
  const asked = { from: param(sp, 'from', 20) || week.from, to: param(sp, 'to', 20) || week.to };
  // A bad date is named on its field; the page shows this week meanwhile.
  const checked = periodInput.safeParse(asked);
  const badField = checked.success ? null : checked.error.issues[0];
  const period = checked.success ? asked : week;
  const base = statementPath(partnerId);
  const {
    partner,
    data: money,
    member,
  } = await loadPartnerPage(partnerId, base, asked, (queryClient) =>
    queryClient.fetchQuery(trpc.opsMoney.statement.queryOptions({ partnerId, ...period })),
  );
  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Fees and payouts"
        description="Every captured payment equals seller payouts + Encore's fees + your primary fee + refunds, to the minor unit; per currency."
      />
      <PeriodForm action={base} title="Period" asked={asked} bad={badField} week={week} />
      <ReconciliationTable
        money={money}
        keep={null}
        title="Statement"
        description={`Payments captured from ${period.from} to ${period.to}.`}
      />
      <PayoutsByState money={money} />
      {memberMay(member, 'money', 'read') && <Exports partnerId={partner.id} period={period} />}
    </>
  );
}
