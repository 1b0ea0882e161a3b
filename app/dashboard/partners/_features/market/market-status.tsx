import { Badge } from '@/components/ui/badge';

type Tone = 'neutral' | 'success' | 'warning' | 'danger';
const TONE: Record<string, Tone> = {
  ACTIVE: 'success',
  RESERVED: 'warning',
  SOLD: 'neutral',
  UNLISTED: 'neutral',
  CANCELLED: 'danger',
  SCHEDULED: 'warning',
  PAID: 'success',
  COMPLETED: 'success',
  REFUNDED: 'danger',
};

/** A status as a badge: "Sold", "Scheduled". */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONE[status] ?? 'neutral'}>{status.charAt(0) + status.slice(1).toLowerCase()}</Badge>;
}

/** A seller or buyer: a channel by its name (its marker address is no one's e-mail), a fan by e-mail. */
export function SellerName({ email, channel }: { email: string; channel: string | null }) {
  return channel ? <span title={email}>Channel: {channel}</span> : <>{email}</>;
}
