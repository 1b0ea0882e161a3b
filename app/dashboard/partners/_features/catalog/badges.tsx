import { Badge } from '@/components/ui/badge';
import { Time } from '@/components/ui/time';
import styles from './catalog.module.css';

function TicketStatusBadge({ status }: { status: 'VALID' | 'INVALIDATED' }) {
  return status === 'VALID' ? <Badge tone="success">Valid</Badge> : <Badge tone="danger">Invalidated</Badge>;
}

/** A ticket's status and, once used at the door, when. */
export function TicketStatus({
  status,
  admittedAt,
}: {
  status: 'VALID' | 'INVALIDATED';
  admittedAt: Date | string | null;
}) {
  return (
    <span className={styles.status}>
      <TicketStatusBadge status={status} />
      {admittedAt && (
        <Badge>
          Admitted <Time value={admittedAt} compact />
        </Badge>
      )}
    </span>
  );
}

export function ShowBadges({
  status,
  showRescheduled,
  resaleEnabled,
}: {
  status: 'LIVE' | 'CANCELLED';
  showRescheduled: boolean;
  resaleEnabled: boolean;
}) {
  return (
    <>
      {status === 'LIVE' ? <Badge tone="success">Live</Badge> : <Badge tone="danger">Cancelled</Badge>}
      {showRescheduled && <Badge tone="warning">Rescheduled</Badge>}
      {!resaleEnabled && <Badge>Resale off</Badge>}
    </>
  );
}
