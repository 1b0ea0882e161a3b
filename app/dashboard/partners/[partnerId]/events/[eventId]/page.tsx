import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { EventDetail } from '../../../_features/catalog/event-detail';
import { EventInventorySection } from '../../../_features/catalog/event-inventory';
import { EventProtectionSection } from '../../../_features/protection/event-protection';
import { loadPartnerPage, type PartnerPageProps } from '../../../_shared/partner-page';
import { eventPath, eventsPath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Event' };

export default async function EventPage({ params }: Pick<PartnerPageProps<{ eventId: string }>, 'params'>) {
  const { partnerId, eventId } = await params;
  // Awaited: an unknown event (or another partner's) is a 404 page, not an error inside this one.
  const {
    partner,
    data: [detail, inventory],
  } = await loadPartnerPage(partnerId, eventPath(partnerId, eventId), {}, (queryClient) =>
    Promise.all([
      queryClient.fetchQuery(trpc.catalog.event.queryOptions({ partnerId, eventId })),
      queryClient.fetchQuery(trpc.catalog.eventInventory.queryOptions({ partnerId, eventId })),
      queryClient.prefetchQuery(trpc.protection.event.queryOptions({ partnerId, eventPk: eventId })),
    ]).then(([event, rows]) => [event, rows] as const),
  );

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
        <EventInventorySection rows={inventory} shows={detail.event.shows} />
        <EventProtectionSection partnerId={partnerId} eventPk={eventId} />
      </HydrateClient>
    </>
  );
}
