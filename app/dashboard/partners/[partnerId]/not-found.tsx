import { EmptyStateWithLink } from '@/components/ui/empty-state';

export default function PartnerNotFound() {
  return (
    <EmptyStateWithLink
      title="Partner not found"
      description="It may have been removed, or the link is wrong."
      link={{ href: '/dashboard/partners', label: 'Back to partners' }}
    />
  );
}
