import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, trpc } from '@/server/trpc/server';

export const metadata: Metadata = { title: 'Overview' };

export default async function DashboardOverviewPage() {
  const staff = await requireStaff('/dashboard');
  const { total } = await getQueryClient().fetchQuery(trpc.partners.list.queryOptions({ pageSize: 1 }));
  return (
    <>
      <PageHeader title="Overview" description={`Signed in as ${staff.email}`} />
      <div className="stat-grid">
        <Card className="stat">
          <p className="stat-label">Partners</p>
          <p className="stat-value" data-testid="partner-count">
            {total}
          </p>
          <div className="stat-actions">
            <ButtonLink href="/dashboard/partners" size="sm">
              View partners
            </ButtonLink>
            <ButtonLink href="/dashboard/partners/new" size="sm" variant="ghost">
              New partner
            </ButtonLink>
          </div>
        </Card>
      </div>
    </>
  );
}
