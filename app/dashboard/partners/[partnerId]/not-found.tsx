import { EmptyStateWithLink } from '@/components/ui/empty-state';
import { getPartnerUserSession } from '@/server/auth/session';

/** An unknown partner (or, to a partner's user, any other than theirs): the way back to what they may see. */
export default async function PartnerNotFound() {
  const partnerUser = await getPartnerUserSession();
  return (
    <EmptyStateWithLink
      title="Partner not found"
      description="It may have been removed, or the link is wrong."
      link={
        partnerUser
          ? { href: '/dashboard', label: 'Back to your dashboard' }
          : { href: '/dashboard/partners', label: 'Back to partners' }
      }
    />
  );
}
