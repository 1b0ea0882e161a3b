import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { EventDetail } from '../../../_features/catalog/event-detail';
import { EventInventorySection } from '../../../_features/catalog/event-inventory';
import { SeatMapPreviewSection } from '../../../_features/catalog/seat-map-preview';
import { param } from '@/components/ui/search-params';
import { EventProtectionSection } from '../../../_features/protection/event-protection';
import { loadPartnerPage, type PartnerPageProps } from '../../../_shared/partner-page';
import { eventPath, eventsPath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Event' };

export default async function EventPage({ params, searchParams }: PartnerPageProps<{ eventId: string }>) {
  const { partnerId, eventId } = await params;
  // The show whose offers the seat map counts (the first by default).
  const mapShow = param(await searchParams, 'mapShow') || undefined;
  // Awaited: an unknown event (or another partner's) is a 404 page, not an error inside this one.
  const {
    partner,
    data: [detail, inventory, seatMap],
  } = await loadPartnerPage(partnerId, eventPath(partnerId, eventId), { mapShow }, (queryClient) =>
    Promise.all([
      queryClient.fetchQuery(trpc.catalog.event.queryOptions({ partnerId, eventId })),
      queryClient.fetchQuery(trpc.catalog.eventInventory.queryOptions({ partnerId, eventId })),
      queryClient.fetchQuery(trpc.catalog.seatMap.queryOptions({ partnerId, eventId, showId: mapShow })),
      queryClient.prefetchQuery(trpc.protection.event.queryOptions({ partnerId, eventPk: eventId })),
    ]).then(([event, rows, map]) => [event, rows, map] as const),
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
        <SeatMapPreviewSection
          preview={seatMap}
          hrefOf={(showId) => `${eventPath(partnerId, eventId)}?mapShow=${encodeURIComponent(showId)}#event-seat-map`}
        />
        <EventProtectionSection partnerId={partnerId} eventPk={eventId} />
      </HydrateClient>
    </>
  );
}
