import type { Metadata } from 'next';
import { PageSkeleton } from '@/components/ui/table';
import { Suspense } from 'react';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { BannerEditor } from '../../_features/banners/banner-editor';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { bannersPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Banners' };

export default async function BannersPage({ params }: PartnerPageProps) {
  const { partnerId } = await params;
  const { queryClient, partner } = await loadPartnerPage(partnerId, bannersPath(partnerId));
  void queryClient.prefetchQuery(trpc.banners.list.queryOptions({ partnerId }));
  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Banners"
        description={
          <>
            Sell banners of <strong>{partner.name}</strong>: what the access layer shows fans on the partner&apos;s own
            pages, where, and when.
          </>
        }
        links={['events']}
      />
      <HydrateClient>
        <Suspense fallback={<PageSkeleton label="Loading banners" />}>
          <BannerEditor partnerId={partnerId} />
        </Suspense>
      </HydrateClient>
    </>
  );
}
