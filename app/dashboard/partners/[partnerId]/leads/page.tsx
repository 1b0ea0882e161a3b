import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { pageParam, param } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { LEAD_TYPES } from '@/server/modules/market-data';
import { trpc } from '@/server/trpc/server';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { partnerPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Leads' };

const PAGE_SIZE = 25;
const TYPE_LABEL: Record<(typeof LEAD_TYPES)[number], string> = {
  TICKET_HOLDER: 'Ticket holders',
  ABANDONED_CART: 'Abandoned carts',
  VIRTUAL_QUEUE: 'Virtual queue',
  WISHLIST: 'Wishlist',
};

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
  const { queryClient, partner } = await loadPartnerPage(partnerId, base, {
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
  const csv = withParams(`${base}/export`, { event: eventRef || undefined });
  const stages = funnel
    ? [
        { label: 'Wishlist', n: funnel.wishlist },
        { label: 'Abandoned cart', n: funnel.abandonedCart },
        { label: 'Bought on resale', n: funnel.boughtOnResale },
      ]
    : [];

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
      <SectionCard
        title="By event"
        description="Leads per event and type. Choose an event for its funnel and its leads."
        actions={
          <ButtonLink href={csv} prefetch={false}>
            Download CSV{eventRef ? ` (${eventRef})` : ''}
          </ButtonLink>
        }
      >
        {counts.length === 0 ? (
          <EmptyState
            title="No leads yet"
            description="Partners send them with POST /v1/marketdata/ticket-leads; fans join wishlists on the buy page."
          />
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Leads by event">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  {LEAD_TYPES.map((t) => (
                    <th scope="col" key={t}>
                      {TYPE_LABEL[t]}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {counts.map((c) => (
                  <tr key={c.eventRef} aria-current={c.eventRef === eventRef ? 'true' : undefined}>
                    <td>
                      <Link href={withParams(base, { event: c.eventRef })}>{c.eventRef}</Link>
                    </td>
                    {LEAD_TYPES.map((t) => (
                      <td key={t}>{c[t]}</td>
                    ))}
                    <td>{c.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SectionCard>

      {funnel ? (
        <SectionCard
          title={`Funnel of ${eventRef}`}
          description="Distinct e-mails at each stage; bought on resale counts those of the first two who completed a resale purchase for this event."
        >
          <ol
            className="card-body"
            data-testid="funnel"
            style={{ display: 'flex', gap: 24, listStyle: 'none', flexWrap: 'wrap', margin: 0 }}
          >
            {stages.map((s, i) => (
              <li key={s.label} data-testid="funnel-stage">
                <p style={{ margin: 0, fontSize: '1.6rem', fontWeight: 700 }}>{s.n}</p>
                <p style={{ margin: 0 }}>{s.label}</p>
                {i > 0 && stages[0].n > 0 ? (
                  <p className="field-hint" style={{ margin: 0 }}>
                    {Math.round((s.n / stages[0].n) * 100)} % of the wishlist
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </SectionCard>
      ) : null}

      <SectionCard title={eventRef ? `Leads of ${eventRef}` : 'All leads'} description="Newest first.">
        <div className="card-body">
          <Form action={base} className="toolbar" aria-label="Filter leads">
            {eventRef ? <input type="hidden" name="event" value={eventRef} /> : null}
            <SelectField label="Type" name="type" defaultValue={type ?? ''} key={type ?? 'all'}>
              <option value="">All types</option>
              {LEAD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </SelectField>
            <Button type="submit">Apply</Button>
          </Form>
        </div>
        {list.items.length === 0 ? (
          <EmptyState title="No leads match" />
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Leads">
              <thead>
                <tr>
                  <th scope="col">Buyer</th>
                  <th scope="col">Type</th>
                  <th scope="col">Event · show</th>
                  <th scope="col">Ticket</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((l) => (
                  <tr key={l.id} data-testid="lead-row">
                    <td>
                      {l.buyerEmail ?? l.buyerPhone ?? l.buyerId}
                      {l.buyerFullName ? <span className="field-hint"> {l.buyerFullName}</span> : null}{' '}
                      {l.unsubscribedAt ? <Badge tone="warning">Unsubscribed</Badge> : null}
                    </td>
                    <td>{TYPE_LABEL[l.type]}</td>
                    <td>
                      {l.externalReferenceEventId} · {l.showId}
                    </td>
                    <td>{l.ticketId ?? '—'}</td>
                    <td>{l.updatedAt.toISOString().slice(0, 16).replace('T', ' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={list.page}
          pageCount={Math.max(1, Math.ceil(list.total / PAGE_SIZE))}
          pageSize={PAGE_SIZE}
          total={list.total}
          basePath={base}
          params={{ event: eventRef || undefined, type }}
          noun="leads"
        />
      </SectionCard>
    </>
  );
}
