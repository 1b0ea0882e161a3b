'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { EmptyState, NoMatch } from '@/components/ui/empty-state';
import { PageLink, PastTheEnd } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { TimeCell } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { withParams } from '@/components/ui/url';
import { TicketStatus } from './badges';
import styles from '../../_shared/browser.module.css';
import { formatCount, formatMoney } from '../../_shared/format';

export interface ShowTicketsInput {
  partnerId: string;
  eventId: string;
  showId: string;
  search?: string;
  after?: string;
  before?: string;
  pageSize: number;
}

const COLUMNS = [
  'Ticket ID',
  'Status',
  'Option / price type',
  { label: 'Price', num: true },
  'Buyer',
  'Received (UTC)',
];

export function ShowTickets({ input, basePath }: { input: ShowTicketsInput; basePath: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalog.showTickets.queryOptions(input));
  const firstPage = withParams(basePath, { q: input.search });

  if (data.total === 0) {
    return input.search ? (
      <NoMatch
        noun="tickets"
        query={input.search}
        description="Search by the start of a ticket ID (exact case), or by a buyer's whole e-mail address (any case)."
        clearHref={basePath}
      />
    ) : (
      <EmptyState
        title="No tickets for this show yet"
        description={
          <>
            Partners push tickets with <code className="mono">POST /v1/tickets</code> or{' '}
            <code className="mono">POST /v1/sync/tickets</code>.
          </>
        }
      />
    );
  }

  if (data.items.length === 0) {
    // A cursor from an old link that no longer leads anywhere.
    return <PastTheEnd firstPage={firstPage} />;
  }

  const noun = data.total === 1 ? 'ticket' : 'tickets';
  return (
    <>
      <Table label="Tickets" columns={COLUMNS}>
        {data.items.map((t) => (
          <tr key={t.id} data-ticket-id={t.ticketId}>
            <td>
              <span className={styles.titleCell}>
                <code className={`mono ${styles.wrap}`}>{t.ticketId}</code>
                <code className={`mono ${styles.sub}`}>{t.id}</code>
              </span>
            </td>
            <td>
              <TicketStatus status={t.status} admittedAt={t.admittedAt} />
            </td>
            <td>
              <code className="mono">{t.ticketOptionId}</code>
              {t.priceTypeId && (
                <>
                  {' '}
                  / <code className="mono">{t.priceTypeId}</code>
                </>
              )}
            </td>
            <td className={`num ${styles.nowrap}`}>
              {formatMoney(t.price, t.currency) ?? <span className={styles.muted}>No price</span>}
            </td>
            <td>
              <span className={styles.titleCell}>
                {t.buyerEmail ? (
                  <span className={styles.wrap}>{t.buyerEmail}</span>
                ) : (
                  <span className={styles.muted}>No e-mail</span>
                )}
                {t.buyerName && <span className={styles.sub}>{t.buyerName}</span>}
              </span>
            </td>
            <TimeCell value={t.createdAt} />
          </tr>
        ))}
      </Table>
      <nav className="pagination" aria-label="Pagination">
        <p className="pagination-summary">
          {formatCount(data.offset + 1)}–{formatCount(data.offset + data.items.length)} of {formatCount(data.total)}{' '}
          {noun}
        </p>
        {/* Keyset pages: each link names the ticketId it continues from, so pages stay exact during imports. */}
        <div className="pagination-links">
          {data.prevCursor && (
            <Link className="btn btn-ghost btn-sm" href={firstPage}>
              First page
            </Link>
          )}
          <PageLink
            href={data.prevCursor ? withParams(basePath, { q: input.search, before: data.prevCursor }) : null}
            rel="prev"
          />
          <PageLink
            href={data.nextCursor ? withParams(basePath, { q: input.search, after: data.nextCursor }) : null}
            rel="next"
          />
        </div>
      </nav>
    </>
  );
}
