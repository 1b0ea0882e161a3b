import type { Metadata } from 'next';
import Link from 'next/link';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { TicketStatus } from '../../../_catalog/badges';
import { notFoundOn404 } from '../../../_catalog/not-found-on-404';
import { batchPath, eventPath, showTicketsPath, ticketPath, ticketsPath } from '../../../_catalog/paths';

export const metadata: Metadata = { title: 'Ticket' };

const KIND_LABEL = {
  imported: 'Imported',
  updated: 'Updated',
  admitted: 'Admitted',
  invalidated: 'Invalidated',
  created: 'Created',
  'last-updated': 'Last updated',
} as const;

/** Support's view of one ticket: the partner's ids, the owner, what happened to it and when. */
export default async function TicketPage({ params }: { params: Promise<{ partnerId: string; ticketId: string }> }) {
  const { partnerId, ticketId } = await params;
  await requireStaff(ticketPath(partnerId, ticketId));
  const queryClient = getQueryClient();
  const [, t] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    queryClient.fetchQuery(trpc.catalog.ticket.queryOptions({ partnerId, ticketId })).catch(notFoundOn404),
  ]);
  const buyer = t.buyer as { email?: string; firstName?: string; lastName?: string } | string;

  return (
    <>
      <PageHeader
        title={
          <>
            Ticket <code className="mono">{t.ticketId}</code>
          </>
        }
        description={<TicketStatus status={t.status} admittedAt={t.admittedAt} />}
        back={{ href: ticketsPath(partnerId), label: 'Find a ticket' }}
      />
      <Card aria-labelledby="ticket-ids">
        <CardHeader headingId="ticket-ids" title="Partner ids" />
        <CardBody>
          <dl className="details" data-testid="ticket-ids">
            <div>
              <dt>ticketId</dt>
              <dd>
                <code className="mono">{t.ticketId}</code>
              </dd>
            </div>
            <div>
              <dt>Event (externalReferenceId)</dt>
              <dd>
                <Link href={eventPath(partnerId, t.eventId)}>{t.eventTitle}</Link>{' '}
                <code className="mono">{t.externalReferenceEventId}</code>
              </dd>
            </div>
            <div>
              <dt>showId</dt>
              <dd>
                <Link href={showTicketsPath(partnerId, t.eventId, t.showPk)}>
                  <code className="mono">{t.showId}</code>
                </Link>
                {t.showStatus === 'CANCELLED' && ' (cancelled)'}
              </dd>
            </div>
            <div>
              <dt>Ticket option</dt>
              <dd>
                <code className="mono">{t.ticketOptionId}</code>
              </dd>
            </div>
            <div>
              <dt>Price type</dt>
              <dd>{t.priceTypeId ? <code className="mono">{t.priceTypeId}</code> : '—'}</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>{t.price ?? '—'}</dd>
            </div>
            <div>
              <dt>Encore id</dt>
              <dd>
                <code className="mono">{t.id}</code>
              </dd>
            </div>
            <div>
              <dt>Owner (buyer)</dt>
              <dd data-testid="ticket-buyer">
                {typeof buyer === 'string'
                  ? buyer
                  : [[buyer.firstName, buyer.lastName].filter(Boolean).join(' '), buyer.email]
                      .filter(Boolean)
                      .join(' · ') || '—'}
              </dd>
            </div>
            <div>
              <dt>Secure view</dt>
              <dd>
                <a href={t.secureViewUrl} target="_blank" rel="noreferrer" data-testid="secure-view-link">
                  Open the secure ticket view
                </a>
              </dd>
            </div>
            <div>
              <dt>Batch</dt>
              <dd>
                {t.batchId ? (
                  <Link href={batchPath(partnerId, t.batchId)} data-testid="ticket-batch">
                    <code className="mono">{t.batchId}</code>
                  </Link>
                ) : (
                  'Synchronous import or unknown'
                )}
              </dd>
            </div>
          </dl>
        </CardBody>
      </Card>
      <Card aria-labelledby="ticket-history">
        <CardHeader
          headingId="ticket-history"
          title="History"
          description={
            t.historyRecorded
              ? 'Every change recorded for this ticket, in order.'
              : 'Imported before history was recorded: only the times stored on the ticket are known.'
          }
        />
        <Table label="Ticket history">
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">When (UTC)</th>
              <th scope="col">Batch</th>
            </tr>
          </thead>
          <tbody data-testid="ticket-history">
            {t.history.map((h, i) => (
              <tr key={i} data-kind={h.kind}>
                <td>{KIND_LABEL[h.kind]}</td>
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
          </tbody>
        </Table>
      </Card>
    </>
  );
}
