import type { inferRouterOutputs } from '@trpc/server';
import Link from '@/components/ui/link';
import { CardBody, SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { withParams } from '@/components/ui/url';
import type { AppRouter } from '@/server/trpc/router';
import { formatMoney } from '../../_shared/format';
import { batchPath, eventPath, marketPath, showTicketsPath } from '../../_shared/paths';

type Ticket = inferRouterOutputs<AppRouter>['catalog']['ticket'];
type Entry = Ticket['history'][number];
type Party = { email: string; channel: string | null };

const KIND_LABEL = {
  imported: 'Imported',
  updated: 'Updated',
  admitted: 'Admitted',
  invalidated: 'Invalidated',
  transferred: 'Transferred',
  reissue_requested: 'Awaiting the partner’s reissue',
  reissued: 'Reissued by the partner (new access code)',
  created: 'Created',
  'last-updated': 'Last updated',
  listed: 'Listed for resale',
  unlisted: 'Taken off sale',
} as const;

/** A channel seller by its channel's name; anyone else by e-mail. */
const partyName = (p: Party) => (p.channel ? `Channel: ${p.channel}` : p.email);

/** What the entry changed, in words and links: buyer, price, listing and order of a sale; the recipient of a transfer. */
function EntryDetail({ partnerId, ticket, entry: h }: { partnerId: string; ticket: Ticket; entry: Entry }) {
  const listingLink = (id: string) => (
    <Link href={`${withParams(marketPath(partnerId), { event: ticket.externalReferenceEventId })}#${id}`}>
      <code className="mono">{id}</code>
    </Link>
  );
  if (h.sale)
    return (
      <>
        Sold to <strong>{partyName(h.sale.buyer)}</strong> for {formatMoney(h.sale.price, h.sale.currency)} · listing{' '}
        {listingLink(h.sale.listingId)} · purchase{' '}
        <Link href={`${withParams(marketPath(partnerId), { view: 'purchases' })}#${h.sale.intentionId}`}>
          <code className="mono">{h.sale.intentionId}</code>
        </Link>
        {h.sale.orderId && (
          <>
            {' '}
            · seller&rsquo;s order <code className="mono">{h.sale.orderId}</code>
          </>
        )}
      </>
    );
  if (h.kind === 'transferred')
    return h.transferTo ? (
      <>
        Transferred to <strong>{h.transferTo}</strong> (no payment)
      </>
    ) : (
      <>Transferred (no payment); the recipient was not recorded</>
    );
  if (h.listing)
    return (
      <>
        {listingLink(h.listing.id)} by {partyName(h.listing.seller)} at{' '}
        {formatMoney(h.listing.price, h.listing.currency)}
        {h.kind === 'unlisted' && ` (${h.listing.status.toLowerCase()})`}
      </>
    );
  if (h.holder) return <>New code for {h.holder}</>;
  return null;
}

/** Support's view of one ticket: the partner's ids, the owner, what happened to it and when. */
export function TicketDetail({ partnerId, ticket: t }: { partnerId: string; ticket: Ticket }) {
  const buyer = t.buyer as { email?: string; firstName?: string; lastName?: string } | string;
  return (
    <>
      <SectionCard headingId="ticket-ids" title="Partner ids">
        <CardBody>
          <DetailList data-testid="ticket-ids">
            <Detail term="ticketId">
              <code className="mono">{t.ticketId}</code>
            </Detail>
            <Detail term="Event (externalReferenceId)">
              <Link href={eventPath(partnerId, t.eventId)}>{t.eventTitle}</Link>{' '}
              <code className="mono">{t.externalReferenceEventId}</code>
            </Detail>
            <Detail term="showId">
              <Link href={showTicketsPath(partnerId, t.eventId, t.showPk)}>
                <code className="mono">{t.showId}</code>
              </Link>
              {t.showStatus === 'CANCELLED' && ' (cancelled)'}
            </Detail>
            <Detail term="Ticket option">
              <code className="mono">{t.ticketOptionId}</code>
            </Detail>
            <Detail term="Price type">{t.priceTypeId ? <code className="mono">{t.priceTypeId}</code> : '—'}</Detail>
            <Detail term="Price">{t.price ?? '—'}</Detail>
            <Detail term="Encore id">
              <code className="mono">{t.id}</code>
            </Detail>
            <Detail term="Owner (buyer)" data-testid="ticket-buyer">
              {typeof buyer === 'string'
                ? buyer
                : [[buyer.firstName, buyer.lastName].filter(Boolean).join(' '), buyer.email]
                    .filter(Boolean)
                    .join(' · ') || '—'}
            </Detail>
            <Detail term="Secure view">
              <a href={t.secureViewUrl} target="_blank" rel="noreferrer" data-testid="secure-view-link">
                Open the secure ticket view
              </a>
            </Detail>
            <Detail term="Batch">
              {t.batchId ? (
                <Link href={batchPath(partnerId, t.batchId)} data-testid="ticket-batch">
                  <code className="mono">{t.batchId}</code>
                </Link>
              ) : (
                'Synchronous import or unknown'
              )}
            </Detail>
          </DetailList>
        </CardBody>
      </SectionCard>
      <SectionCard
        headingId="ticket-history"
        title="History"
        description={
          t.historyRecorded
            ? 'Every change recorded for this ticket, in order.'
            : 'Imported before history was recorded: only the times stored on the ticket are known.'
        }
      >
        <Table label="Ticket history" columns={['What', 'Details', 'When (UTC)', 'Batch']} bodyTestId="ticket-history">
          {t.history.map((h, i) => (
            <tr key={i} data-kind={h.kind}>
              <td>{h.sale ? 'Sold on resale' : KIND_LABEL[h.kind]}</td>
              <td data-testid="history-detail">
                <EntryDetail partnerId={partnerId} ticket={t} entry={h} />
              </td>
              <td>
                <Time value={h.at} seconds />
              </td>
              <td>
                {h.batchId ? (
                  <Link href={batchPath(partnerId, h.batchId)}>
                    <code className="mono">{h.batchId}</code>
                  </Link>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </Table>
      </SectionCard>
    </>
  );
}
