import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { EventDetail } from '../../../_catalog/event-detail';
import { notFoundOn404 } from '../../../_catalog/not-found-on-404';
import { eventPath, eventsPath } from '../../../_catalog/paths';

export const metadata: Metadata = { title: 'Event' };

export default async function EventPage({ params }: { params: Promise<{ partnerId: string; eventId: string }> }) {
  const { partnerId, eventId } = await params;
  await requireStaff(eventPath(partnerId, eventId));

  const queryClient = getQueryClient();
  // Awaited: an unknown event (or another partner's) is a 404 page, not an error inside this one.
  const [partner, detail] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    queryClient.fetchQuery(trpc.catalog.event.queryOptions({ partnerId, eventId })).catch(notFoundOn404),
  ]);

  return (
    <>
      <PageHeader
        title={detail.title}
        description={
          <>
            Event <code className="mono">{detail.externalReferenceId}</code> of {partner.name}
          </>
        }
        back={{ href: eventsPath(partnerId), label: 'Events' }}
      />
      <HydrateClient>
        <EventDetail partnerId={partnerId} eventId={eventId} />
      </HydrateClient>
    </>
  );
}
