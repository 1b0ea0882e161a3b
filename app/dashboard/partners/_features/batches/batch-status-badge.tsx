import { Badge } from '@/components/ui/badge';

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
