import type { Metadata } from 'next';
import { TRPCError } from '@trpc/server';
import { notFound, redirect } from 'next/navigation';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { param, type SearchParams } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { getPartnerUserSession, requireStaff } from '@/server/auth/session';
import { may } from '@/server/lib/staff-roles';
import { overviewInput } from '@/server/modules/ops';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { OverviewCharts } from './_overview/charts';
import { chartsOf, OverviewFigures } from './_overview/figures';
import { OverviewFilters } from './_overview/filters';
import styles from './_overview/overview.module.css';
import { lastThirtyDays } from './_overview/range';
import { partnerPath } from './partners/_shared/paths';

export const metadata: Metadata = { title: 'Overview' };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How the market is doing: the figures for a range of days (the last 30 by default), for every partner,
 * one partner or one of its events, with daily charts. Staff only (a partner's user is sent to their
 * partner's page); the filters live in the URL.
 */
export default async function DashboardOverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const partnerUser = await getPartnerUserSession();
  if (partnerUser) redirect(partnerPath(partnerUser.partnerId));
  const sp = await searchParams;
  const fallback = lastThirtyDays();
  const values = {
    from: param(sp, 'from', 10) || fallback.from,
    to: param(sp, 'to', 10) || fallback.to,
    partnerId: param(sp, 'partner', 64) || undefined,
    eventId: (param(sp, 'partner', 64) && param(sp, 'event', 64)) || undefined,
  };
  const staff = await requireStaff(
    withParams('/dashboard', {
      from: param(sp, 'from', 10) || undefined,
      to: param(sp, 'to', 10) || undefined,
      partner: values.partnerId,
      event: values.eventId,
    }),
  );
  // A date that is no date comes from an edited URL (the form's date inputs cannot send one): a 404.
  if (!DATE.test(values.from) || !DATE.test(values.to)) notFound();
  // A range the form can send but the overview refuses (backwards, longer than a year): said at its field.
  const parsed = overviewInput.safeParse(values);
  const errors: Partial<Record<'from' | 'to', string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'from' || field === 'to') errors[field] ??= issue.message;
    }
    if (!errors.from && !errors.to) notFound();
  }
  const queryClient = getQueryClient();
  // The figures are asked at the same time as the filters' choices (an unknown partner or event: null
  // here, and the 404 just below). The filters list every partner: their count is the Partners card's.
  const [filters, overview] = await Promise.all([
    queryClient.fetchQuery(trpc.opsOverview.filters.queryOptions({ partnerId: values.partnerId })),
    parsed.success
      ? queryClient.fetchQuery(trpc.opsOverview.figures.queryOptions(parsed.data)).catch((err: unknown) => {
          if (err instanceof TRPCError && err.code === 'NOT_FOUND') return null;
          throw err;
        })
      : null,
  ]);
  if (values.partnerId && !filters.partners.some((p) => p.id === values.partnerId)) notFound();
  if (values.eventId && !filters.events.some((e) => e.id === values.eventId)) notFound();
  const scope = values.eventId
    ? (filters.events.find((e) => e.id === values.eventId)?.title ?? '')
    : values.partnerId
      ? (filters.partners.find((p) => p.id === values.partnerId)?.name ?? '')
      : 'all partners';

  return (
    <>
      <PageHeader
        title="Overview"
        description={`How the market is doing: ${scope}, ${values.from} to ${values.to} (UTC days). Signed in as ${staff.email}.`}
      />
      <OverviewFilters values={values} partners={filters.partners} events={filters.events} errors={errors} />
      {!overview ? (
        <Alert tone="error" title="These filters cannot be shown">
          {Object.values(errors).join(' ')}
        </Alert>
      ) : (
        <>
          {overview.sales === 0 ? (
            <EmptyState
              title="No sales in this range"
              description="Nothing was resold with these filters. Widen the dates or choose another partner."
            />
          ) : null}
          <OverviewFigures o={overview} />
          {overview.sales > 0 ? (
            <section aria-labelledby="overview-charts" className={styles.section}>
              <h2 id="overview-charts" className={styles.sectionTitle}>
                Over time
              </h2>
              <OverviewCharts charts={chartsOf(overview)} />
            </section>
          ) : null}
        </>
      )}
      <section aria-labelledby="overview-partners" className={styles.section}>
        <h2 id="overview-partners" className={styles.sectionTitle}>
          Partners
        </h2>
        <div className="stat-grid">
          <Card className="stat">
            <p className="stat-label">Partners</p>
            <p className="stat-value" data-testid="partner-count">
              {filters.partners.length}
            </p>
            <div className="stat-actions">
              <ButtonLink href="/dashboard/partners" size="sm">
                View partners
              </ButtonLink>
              {may(staff.role, 'admin') && (
                <ButtonLink href="/dashboard/partners/new" size="sm" variant="ghost">
                  New partner
                </ButtonLink>
              )}
            </div>
          </Card>
        </div>
      </section>
    </>
  );
}
