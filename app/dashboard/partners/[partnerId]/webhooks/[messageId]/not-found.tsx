import { EmptyStateWithLink } from '@/components/ui/empty-state';

export default function WebhookMessageNotFound() {
  return (
    <EmptyStateWithLink
      title="Message not found"
      description="The link may be wrong, or the message belongs to another partner."
      link={{ href: '/dashboard/partners', label: 'Back to partners' }}
    />
  );
}
