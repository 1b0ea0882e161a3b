import type { Metadata } from 'next';
import Form from 'next/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { param } from '@/components/ui/search-params';
import { memberMay } from '@/server/lib/staff-roles';
import { periodInput, thisWeek } from '@/server/modules/ops';
import { trpc } from '@/server/trpc/server';
import { Exports, PayoutsByState, ReconciliationTable } from '../../../money/money-sections';
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
      <SectionCard title="Period" description="Whole days, UTC; both days included.">
        <div className="card-body">
          <Form
            action={base}
            className="form-actions"
            style={{ alignItems: 'flex-end' }}
            aria-label="Choose the period"
          >
            <Field
              label="From"
              name="from"
              type="date"
              required
              defaultValue={asked.from}
              error={badField?.path[0] === 'from' ? badField.message : null}
            />
            <Field
              label="To"
              name="to"
              type="date"
              required
              defaultValue={asked.to}
              error={badField?.path[0] === 'to' ? badField.message : null}
            />
            <Button type="submit">Show</Button>
          </Form>
          {badField ? (
            <Alert tone="error" title="The period was not read">
              {badField.message}. Showing this week ({week.from} to {week.to}) instead.
            </Alert>
          ) : null}
        </div>
      </SectionCard>
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
