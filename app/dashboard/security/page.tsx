import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { requireMember } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { TwoFactorCard } from './_components/two-factor';

export const metadata: Metadata = { title: 'Security' };

/**
 * The signed-in member's own sign-in security: two-factor sign-in. Everyone who signs in to the dashboard
 * may use it, every staff role and every partner user (`self`); there is nobody else's to see here.
 */
export default async function SecurityPage() {
  const member = await requireMember('/dashboard/security');
  await getQueryClient().prefetchQuery(trpc.twoFactor.status.queryOptions());
  return (
    <>
      <PageHeader title="Security" description={`How you, ${member.email}, sign in to this dashboard.`} />
      <HydrateClient>
        <TwoFactorCard />
      </HydrateClient>
    </>
  );
}
