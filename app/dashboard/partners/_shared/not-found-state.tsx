'use client';

import { useParams } from 'next/navigation';
import { EmptyStateWithLink } from '@/components/ui/empty-state';
import { batchesPath, eventPath, eventsPath } from './paths';

/**
 * The not-found page of the events browser and the ticket batches. Not-found pages get no props; the
 * URL's params say where to send staff back to (the partner's list, or the event when only the show
 * is wrong).
 */
export function CatalogNotFound({ what }: { what: 'event' | 'show' | 'batch' }) {
  const { partnerId, eventId } = useParams<{ partnerId: string; eventId?: string }>();
  const back =
    what === 'batch'
      ? { href: batchesPath(partnerId), label: 'Back to ticket batches' }
      : what === 'show' && eventId
        ? { href: eventPath(partnerId, eventId), label: 'Back to the event' }
        : { href: eventsPath(partnerId), label: 'Back to events' };
  const title = { event: 'Event not found', show: 'Show not found', batch: 'Ticket batch not found' }[what];
  return (
    <EmptyStateWithLink
      title={title}
      description={`The link may be wrong, or the ${what} belongs to another partner.`}
      link={back}
    />
  );
}
