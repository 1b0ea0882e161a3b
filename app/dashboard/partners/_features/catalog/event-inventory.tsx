import type { inferRouterOutputs } from '@trpc/server';
import Link from '@/components/ui/link';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import type { AppRouter } from '@/server/trpc/router';
import { formatCount, formatMoney } from '../../_shared/format';
import styles from '../../_shared/browser.module.css';

type Outputs = inferRouterOutputs<AppRouter>['catalog'];
type Row = Outputs['eventInventory'][number];
type ApiShow = Outputs['event']['event']['shows'][number];

const count = (n: number | null) => (n === null ? '—' : formatCount(n));

function soldText(r: Row): string {
  if (r.soldOut) return 'Sold out';
  if (r.soldPercentage !== null) return `${r.soldPercentage}% sold`;
  return r.soldOut === false ? 'Not sold out' : '—';
}

/** The face price of the row's option in the catalogue (inventory carries no price of its own). */
function facePrice(r: Row, shows: ApiShow[]): string {
  const option = shows.find((s) => s.showId === r.showId)?.ticketOptions?.find((o) => o.ticketId === r.ticketOptionId);
  return option ? (formatMoney(option.price, option.currency) ?? '—') : '—';
}

/**
 * What the partner says of its primary sales (PUT /v1/marketdata/events/{id}/inventory and …/details):
 * per show and per option / price type, released, reserved, sold, with when it last said so.
 */
export function EventInventorySection({ rows, shows }: { rows: Row[]; shows: ApiShow[] }) {
  return (
    <SectionCard
      headingId="event-inventory"
      title="Primary inventory (from the partner)"
      description="What the partner reports through the inventory API; buying pages call a show it reports sold out “sold out on primary”."
    >
      {rows.length === 0 ? (
        <EmptyState
          title="No inventory yet"
          description={
            <>
              The partner has not sent inventory for this event. It arrives through{' '}
              <Link href="/docs/operations/putInventory">the inventory API</Link>.
            </>
          }
        />
      ) : (
        <Table
          label="Primary inventory"
          bodyTestId="event-inventory"
          columns={[
            'Show',
            'Option / price type',
            { label: 'Released', num: true },
            { label: 'Reserved', num: true },
            'Sold',
            { label: 'Face price', num: true, title: 'The option’s price in the catalogue' },
            'Updated (UTC)',
          ]}
        >
          {rows.map((r) => (
            <tr key={`${r.showId}|${r.ticketOptionId}|${r.priceTypeId}`}>
              <td>
                {r.showId ? (
                  <>
                    <code className="mono">{r.showId}</code>
                    {r.showTitle && <div className={styles.sub}>{r.showTitle}</div>}
                  </>
                ) : (
                  <>
                    Whole event
                    <div className={styles.sub}>capacity {count(r.capacity)}</div>
                  </>
                )}
              </td>
              <td>
                {r.ticketOptionId || r.priceTypeId ? (
                  <code className="mono">{[r.ticketOptionId, r.priceTypeId].filter(Boolean).join(' / ')}</code>
                ) : (
                  <span className="muted">{r.showId ? 'Whole show' : '—'}</span>
                )}
              </td>
              <td className="num">{count(r.releasedTickets)}</td>
              <td className="num">{count(r.reservedSpace)}</td>
              <td>{soldText(r)}</td>
              <td className="num">{facePrice(r, shows)}</td>
              <td className={styles.nowrap}>
                <Time value={r.updatedAt} compact />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </SectionCard>
  );
}
