import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

export default function WebhookMessageNotFound() {
  return (
    <EmptyState
      title="Message not found"
      description="The link may be wrong, or the message belongs to another partner."
      action={<ButtonLink href="/dashboard/partners">Back to partners</ButtonLink>}
    />
  );
}
