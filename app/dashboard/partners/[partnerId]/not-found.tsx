import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

export default function PartnerNotFound() {
  return (
    <EmptyState
      title="Partner not found"
      description="It may have been removed, or the link is wrong."
      action={<ButtonLink href="/dashboard/partners">Back to partners</ButtonLink>}
    />
  );
}
