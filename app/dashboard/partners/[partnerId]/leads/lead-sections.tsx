import type { inferRouterOutputs } from '@trpc/server';
import Link from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { TableRegion } from '@/components/ui/table';
import { withParams } from '@/components/ui/url';
import { LEAD_TYPES } from '@/server/modules/market-data';
import type { AppRouter } from '@/server/trpc/router';
import { SelectFilter } from '../../_shared/select-filter';

type Outputs = inferRouterOutputs<AppRouter>['leads'];
type LeadType = (typeof LEAD_TYPES)[number];

const TYPE_LABEL: Record<LeadType, string> = {
  TICKET_HOLDER: 'Ticket holders',
  ABANDONED_CART: 'Abandoned carts',
  VIRTUAL_QUEUE: 'Virtual queue',
  WISHLIST: 'Wishlist',
};

/** Leads per event and type, each event a link to its funnel and list, and (with `csv`) the CSV of them. */
export function LeadsByEvent({
  counts,
  base,
  eventRef,
  csv,
}: {
  counts: Outputs['counts'];
  base: string;
  eventRef: string;
  csv: string | null;
}) {
  return (
    <SectionCard
      title="By event"
      description="Leads per event and type. Choose an event for its funnel and its leads."
      actions={
        csv && (
          <ButtonLink href={csv} prefetch={false}>
            Download CSV{eventRef ? ` (${eventRef})` : ''}
          </ButtonLink>
        )
      }
    >
      {counts.length === 0 ? (
        <EmptyState
          title="No leads yet"
          description="Partners send them with POST /v1/marketdata/ticket-leads; fans join wishlists on the buy page."
        />
      ) : (
        <TableRegion label="Leads by event">
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
        </TableRegion>
      )}
    </SectionCard>
  );
}

/** An event's funnel: wishlist → abandoned cart → bought on resale, as shares of the wishlist. */
export function LeadFunnel({ funnel, eventRef }: { funnel: Outputs['funnel']; eventRef: string }) {
  const stages = [
    { label: 'Wishlist', n: funnel.wishlist },
    { label: 'Abandoned cart', n: funnel.abandonedCart },
    { label: 'Bought on resale', n: funnel.boughtOnResale },
  ];

  return (
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
  );
}

/** The leads themselves, newest first, filtered by type, a page at a time. */
export function LeadList({
  list,
  base,
  eventRef,
  type,
  pageSize,
}: {
  list: Outputs['list'];
  base: string;
  eventRef: string;
  type: LeadType | undefined;
  pageSize: number;
}) {
  return (
    <SectionCard title={eventRef ? `Leads of ${eventRef}` : 'All leads'} description="Newest first.">
      <div className="card-body">
        <SelectFilter
          action={base}
          label="Filter leads"
          fieldLabel="Type"
          name="type"
          value={type}
          all="All types"
          options={LEAD_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
          keep={{ event: eventRef }}
        />
      </div>
      {list.items.length === 0 ? (
        <EmptyState title="No leads match" />
      ) : (
        <TableRegion label="Leads">
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
        </TableRegion>
      )}
      <Pagination
        page={list.page}
        pageCount={Math.max(1, Math.ceil(list.total / pageSize))}
        pageSize={pageSize}
        total={list.total}
        basePath={base}
        params={{ event: eventRef || undefined, type }}
        noun="leads"
      />
    </SectionCard>
  );
}
