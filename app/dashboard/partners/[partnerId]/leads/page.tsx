import type { Metadata } from 'next';
import { pageParam, param } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { memberMay } from '@/server/lib/staff-roles';
import { LEAD_TYPES } from '@/server/modules/market-data';
import { trpc } from '@/server/trpc/server';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { partnerPath } from '../../_shared/paths';
import { LeadFunnel, LeadList, LeadsByEvent } from './lead-sections';

export const metadata: Metadata = { title: 'Leads' };

const PAGE_SIZE = 25;

/** A partner's leads: per event and type, an event's funnel (wishlist → abandoned cart → bought on resale), the list and a CSV. */
export default async function LeadsPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const eventRef = param(sp, 'event', 200);
  const typeParam = param(sp, 'type');
  const type = (LEAD_TYPES as readonly string[]).includes(typeParam)
    ? (typeParam as (typeof LEAD_TYPES)[number])
    : undefined;
  const page = pageParam(sp);
  const base = `${partnerPath(partnerId)}/leads`;
  const { queryClient, partner, member } = await loadPartnerPage(partnerId, base, {
    event: eventRef || undefined,
    type,
    page: page > 1 ? page : undefined,
  });
  const [counts, list, funnel] = await Promise.all([
    queryClient.fetchQuery(trpc.leads.counts.queryOptions({ partnerId })),
    queryClient.fetchQuery(
      trpc.leads.list.queryOptions({ partnerId, eventRef: eventRef || undefined, type, page, pageSize: PAGE_SIZE }),
    ),
    eventRef ? queryClient.fetchQuery(trpc.leads.funnel.queryOptions({ partnerId, eventRef })) : null,
  ]);
  // The CSV takes figures away: only for a role that may (`money`; a partner's own users, `read`), as its route checks.
  const csv = memberMay(member, 'money', 'read')
    ? withParams(`${base}/export`, { event: eventRef || undefined })
    : null;

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Leads"
        description={
          <>
            People interested in <strong>{partner.name}</strong>&apos;s shows, as the partner sends them (market data)
            and as fans join a wishlist on the buy page.
          </>
        }
        links={['events']}
      />
      <LeadsByEvent counts={counts} base={base} eventRef={eventRef} csv={csv} />
      {funnel ? <LeadFunnel funnel={funnel} eventRef={eventRef} /> : null}
      <LeadList list={list} base={base} eventRef={eventRef} type={type} pageSize={PAGE_SIZE} />
    </>
  );
}
