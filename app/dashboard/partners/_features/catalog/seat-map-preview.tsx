import type { inferRouterOutputs } from '@trpc/server';
import { Alert } from '@/components/ui/alert';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import Link from '@/components/ui/link';
import { Table } from '@/components/ui/table';
import type { AppRouter } from '@/server/trpc/router';
import { formatCount, formatMoney } from '../../_shared/format';
import styles from './seat-map-preview.module.css';

type Preview = inferRouterOutputs<AppRouter>['catalog']['seatMap'];

/**
 * The event's seat map as fans see it, for one show: each section's tickets on sale and
 * from-price, and what does not match between the map and the tickets, so staff can ask the partner to fix
 * either before fans meet a section they cannot pick.
 */
export function SeatMapPreviewSection({ preview, hrefOf }: { preview: Preview; hrefOf: (showId: string) => string }) {
  const { map, shows, showId } = preview;
  return (
    <SectionCard
      headingId="event-seat-map"
      title="Seat map"
      description="The event’s seating as the buy page draws it, counted for one show: a section is an SVG element whose data-section or id is a ticket’s seating.section."
      data-testid="seat-map-preview"
    >
      {!map ? (
        <EmptyState
          title="No seat map"
          description={
            <>
              The partner sends one with the event as <code className="mono">seating</code> (an image URL or SVG):{' '}
              <Link href="/docs/operations/createEvent">the events API</Link>.
            </>
          }
        />
      ) : (
        <>
          {shows.length > 1 ? (
            <ul className={styles.shows} aria-label="Count the offers of">
              {shows.map((s) => (
                <li key={s.showId}>
                  <Link href={hrefOf(s.showId)} aria-current={s.showId === showId ? 'true' : undefined}>
                    {s.title || s.showId}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <div className={styles.warnings}>
            {map.missingInMap.length ? (
              <Alert tone="warning" title="Tickets name sections the map does not draw">
                Fans cannot pick these on the map: {map.missingInMap.join(', ')}.
              </Alert>
            ) : null}
            {map.withoutTickets.length ? (
              <Alert tone="warning" title="The map draws sections no ticket names">
                Never on sale as drawn: {map.withoutTickets.join(', ')}.
              </Alert>
            ) : null}
          </div>
          {map.drawn ? (
            // Partner markup cleaned when written and again when drawn (server/lib/svg.ts); ids prefixed.
            <div className={styles.drawing} dangerouslySetInnerHTML={{ __html: map.drawn }} />
          ) : map.image ? (
            // eslint-disable-next-line @next/next/no-img-element -- the partner's image URL, not ours to optimise
            <img className={styles.image} src={map.image} alt="The event’s seat map" />
          ) : null}
          <div className={styles.sections}>
            <Table
              label="Sections of the seat map"
              bodyTestId="seat-map-sections"
              columns={['Section', 'On the map', { label: 'On sale', num: true }, { label: 'From', num: true }]}
            >
              {map.sections.map((s) => (
                <tr key={s.key}>
                  {/* Its name as fans read it (the map's label), the id tickets name it by beneath. */}
                  <td>
                    {s.label}
                    {s.label !== s.name ? <code className={`mono ${styles.sectionId}`}>{s.name}</code> : null}
                  </td>
                  <td>{s.inMap ? 'Yes' : 'No'}</td>
                  <td className="num">{formatCount(s.available)}</td>
                  <td className="num">
                    {s.minPrice !== null && s.currency ? (formatMoney(s.minPrice, s.currency) ?? '—') : '—'}
                  </td>
                </tr>
              ))}
            </Table>
          </div>
        </>
      )}
    </SectionCard>
  );
}
