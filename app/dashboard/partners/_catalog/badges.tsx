import { Badge } from '@/components/ui/badge';
import { Time } from '@/components/ui/time';
import styles from './catalog.module.css';

export function TicketStatusBadge({ status }: { status: 'VALID' | 'INVALIDATED' }) {
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

const BATCH_LABEL = { queued: 'Queued', processing: 'Importing', completed: 'Completed' } as const;

/**
 * A finished batch says how it ended: every ticket failed is "Failed" (red), some failed is
 * "Partially failed" (amber); an amber "Completed" read as success to support staff.
 */
export function BatchStatusBadge({
  status,
  failed,
  total,
}: {
  status: keyof typeof BATCH_LABEL;
  failed: number;
  total: number;
}) {
  if (status === 'completed' && failed > 0) {
    return failed >= total ? <Badge tone="danger">Failed</Badge> : <Badge tone="warning">Partially failed</Badge>;
  }
  return <Badge tone={status === 'completed' ? 'success' : 'neutral'}>{BATCH_LABEL[status]}</Badge>;
}
