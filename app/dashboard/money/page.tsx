import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SelectField } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { pageParam, param, type SearchParams } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { may } from '@/server/lib/staff-roles';
import { periodInput, thisWeek } from '@/server/modules/ops';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { Exports, Mismatches, MONEY_PATH, PayoutsByState, PeriodForm, ReconciliationTable } from './money-sections';

export const metadata: Metadata = { title: 'Money' };

const BASE = MONEY_PATH;

/**
 * Money reconciled: for a period (default this week) and optionally one partner, every captured payment
 * against payouts, fees and refunds per partner and currency, the mismatches with their ids, payouts by
 * state, and (for a role that may take figures away: `money`) the CSV exports.
 */
export default async function MoneyPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const week = thisWeek();
  const asked = { from: param(sp, 'from', 20) || week.from, to: param(sp, 'to', 20) || week.to };
  const partnerId = param(sp, 'partner', 100) || undefined;
  const page = pageParam(sp);
  const staff = await requireStaff(withParams(BASE, { ...asked, partner: partnerId }));

  // A bad date is named on its field; the page shows this week meanwhile.
  const checked = periodInput.safeParse(asked);
  const badField = checked.success ? null : checked.error.issues[0];
  const period = checked.success ? asked : week;
  const queryClient = getQueryClient();
  const [money, partners] = await Promise.all([
    queryClient
      .fetchQuery(trpc.opsMoney.reconciliation.queryOptions({ ...period, partnerId }))
      .catch((err: unknown) => {
        if (err instanceof TRPCError && (err.code === 'NOT_FOUND' || err.code === 'BAD_REQUEST')) notFound();
        throw err;
      }),
    queryClient.fetchQuery(trpc.partners.list.queryOptions({ page: 1, pageSize: 100 })),
  ]);
  const keep = { from: period.from, to: period.to, partner: partnerId };
  const chosen = partnerId ? partners.items.find((p) => p.id === partnerId) : undefined;

  return (
    <>
      <PageHeader
        title="Money"
        description="Every captured payment equals seller payouts + Encore's fees + the partner's primary fee + refunds, to the minor unit. Per partner and currency; never summed across currencies."
      />
      <PeriodForm action={BASE} title="Period and partner" asked={asked} bad={badField} week={week}>
        <SelectField label="Partner" name="partner" defaultValue={partnerId ?? ''} style={{ minWidth: 200 }}>
          <option value="">All partners</option>
          {partners.items.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
      </PeriodForm>

      <ReconciliationTable
        money={money}
        keep={keep}
        description={`Payments captured from ${period.from} to ${period.to}${chosen ? ` for ${chosen.name}` : ''}.`}
      />
      <Mismatches money={money} keep={keep} page={page} />
      <PayoutsByState money={money} />
      {may(staff.role, 'money') && <Exports partnerId={partnerId} period={period} />}
    </>
  );
}
