import { Badge } from '@/components/ui/badge';

const TONE = { sent: 'success', stored: 'neutral', queued: 'warning', failed: 'danger' } as const;
const LABEL = { sent: 'Sent', stored: 'Stored', queued: 'Queued', failed: 'Failed' } as const;

/** A mail's state: sent through SMTP, stored (no SMTP_URL), waiting or retrying, or given up. */
export function MailStatusBadge({ status }: { status: keyof typeof TONE }) {
  return <Badge tone={TONE[status]}>{LABEL[status]}</Badge>;
}
