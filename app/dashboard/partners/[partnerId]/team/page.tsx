import type { Metadata } from 'next';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { isPartnerUser } from '@/server/modules/staff';
import { PartnerTeam } from '../../_features/team/partner-team';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { teamPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Team' };

/**
 * A partner's own users, who sign in to see this partner alone. Its owner and Encore's admin invite, change
 * roles and remove; every other member (staff, or the partner's users) reads.
 */
export default async function TeamPage({ params }: Pick<PartnerPageProps, 'params'>) {
  const { partnerId } = await params;
  const { partner, member } = await loadPartnerPage(partnerId, teamPath(partnerId), {}, (qc) =>
    qc.fetchQuery(trpc.partnerUsers.list.queryOptions({ partnerId })),
  );
  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Team"
        description={`Who signs in to ${partner.name}'s dashboard, and what each may do.`}
      />
      <HydrateClient>
        <PartnerTeam partnerId={partnerId} currentUserId={isPartnerUser(member) ? member.id : null} />
      </HydrateClient>
    </>
  );
}
