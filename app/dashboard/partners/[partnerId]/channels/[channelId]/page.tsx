import type { Metadata } from 'next';
import Form from 'next/form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { pageParam, param } from '@/components/ui/search-params';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { channelListingStatus } from '@/server/modules/channels/schemas';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ChannelDetails } from '../../../_features/channels/channel-details';
import { ChannelWebhooks } from '../../../_features/channels/channel-webhooks';
import { ApiKeysSection } from '../../../_features/keys/api-keys-section';
import { loadPartnerPage, PartnerPageHeader } from '../../../_shared/partner-page';
import { channelPath, channelsPath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Channel' };

const PAGE_SIZE = 25;
const CHANNEL_LISTING_STATES = channelListingStatus.options;
const TONE = {
  ACTIVE: 'success',
  RESERVED: 'warning',
  SOLD: 'neutral',
  UNLISTED: 'warning',
  CANCELLED: 'danger',
} as const;

type Props = {
  params: Promise<{ partnerId: string; channelId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** One channel: details, its keys, and its listings (filter by state, a page at a time). */
export default async function ChannelPage({ params, searchParams }: Props) {
  const { partnerId, channelId } = await params;
  const sp = await searchParams;
  const statusParam = param(sp, 'status');
  const status = (CHANNEL_LISTING_STATES as readonly string[]).includes(statusParam)
    ? (statusParam as (typeof CHANNEL_LISTING_STATES)[number])
    : undefined;
  const page = pageParam(sp);
  const base = channelPath(partnerId, channelId);
  const { queryClient, partner, data } = await loadPartnerPage(
    partnerId,
    base,
    { status, page: page > 1 ? page : undefined },
    async (qc) => {
      const [channel, listings] = await Promise.all([
        qc.fetchQuery(trpc.channels.get.queryOptions({ partnerId, channelId })),
        qc.fetchQuery(trpc.channels.listings.queryOptions({ partnerId, channelId, status, page, pageSize: PAGE_SIZE })),
      ]);
      return { channel, listings };
    },
  );
  void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId, channelId }));
  const { channel, listings } = data;

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title={channel.name}
        description={
          <>
            A channel of {partner.name}. <a href={channelsPath(partnerId)}>All channels</a>
          </>
        }
      />
      <HydrateClient>
        <ChannelDetails partnerId={partnerId} channelId={channelId} />
        <ApiKeysSection
          partnerId={partnerId}
          kind="channels"
          channelId={channelId}
          title="Channels API keys"
          description="Keys starting with sk_ch_ open only the Channels API, as this channel. Several may be active while the channel rotates them."
        />
        <ChannelWebhooks partnerId={partnerId} channelId={channelId} />
      </HydrateClient>
      <SectionCard title="Listings" description="Newest first, as the channel pushed them.">
        <div className="card-body">
          <Form action={base} className="toolbar" aria-label="Filter listings">
            <SelectField label="State" name="status" defaultValue={status ?? ''} key={status ?? 'all'}>
              <option value="">All states</option>
              {CHANNEL_LISTING_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
            <Button type="submit">Apply</Button>
          </Form>
        </div>
        {listings.items.length === 0 ? (
          <EmptyState
            title={status ? 'No listings in this state' : 'No listings yet'}
            description="The channel pushes them with PUT /v1/channels/listings/{listingId} or POST /v1/channels/listings/bulk."
          />
        ) : (
          <Table
            label="Channel listings"
            columns={['Listing', 'State', 'Event · show', 'Option', 'Tickets', 'Price', 'Updated']}
            bodyTestId="channel-listing-rows"
          >
            {listings.items.map((l) => (
              <tr key={l.id}>
                <td>
                  <code className="mono">{l.listingId}</code>
                </td>
                <td>
                  <Badge tone={TONE[l.status]}>{l.status}</Badge>
                </td>
                <td>
                  {l.eventId} · {l.showId}
                </td>
                <td>
                  {l.ticketOptionId}
                  {l.priceTypeId ? ` / ${l.priceTypeId}` : ''}
                </td>
                <td>
                  {l.quantity}
                  {l.soldWhole ? ' (whole)' : ''}
                </td>
                <td>
                  {l.price} {l.currency}
                </td>
                <td>
                  <Time value={new Date(l.updatedAt)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={listings.page}
          pageCount={Math.max(1, Math.ceil(listings.total / PAGE_SIZE))}
          pageSize={PAGE_SIZE}
          total={listings.total}
          basePath={base}
          params={{ status }}
          noun="listings"
        />
      </SectionCard>
    </>
  );
}
