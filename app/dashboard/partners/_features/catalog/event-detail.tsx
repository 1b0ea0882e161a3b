'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { EmptyState } from '@/components/ui/empty-state';
import { Time, VenueTime } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import type { AppRouter } from '@/server/trpc/router';
import { ShowBadges } from './badges';
import { Combinations, PriceTypes, TicketOptions } from './show-sections';
import { formatCount } from '../../_shared/format';
import styles from '../../_shared/browser.module.css';
import { showTicketsPath } from '../../_shared/paths';
import catalog from './catalog.module.css';

type Detail = inferRouterOutputs<AppRouter>['catalog']['event'];
type ApiShow = Detail['event']['shows'][number];
type ShowMeta = Detail['shows'][number];
type RuleGroup = Detail['ruleGroups'][number];

const SCOPE_LABEL: Record<RuleGroup['level'], string> = {
  event: 'Whole event',
  show: 'Whole show',
  priceType: 'Price type',
  ticketOption: 'Ticket option',
  'ticketOption+priceType': 'Ticket option + price type',
};

/** Location fields the partner filled, in reading order. */
function placeOf(location: Record<string, unknown> | undefined): string {
  if (!location) return '';
  const parts = ['venueName', 'address', 'city', 'state', 'postalCode', 'country']
    .map((k) => location[k])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (parts.length) return parts.join(', ');
  return typeof location.raw === 'string' ? location.raw : '';
}

export function EventDetail({ partnerId, eventId }: { partnerId: string; eventId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalog.event.queryOptions({ partnerId, eventId }));
  const { event } = data;
  const eventRules = data.ruleGroups.filter((g) => g.level === 'event');
  const place = placeOf(event.location as Record<string, unknown>);

  return (
    <div className={styles.stack}>
      <SectionCard title="Event" headingId="event-heading">
        <CardBody>
          <DetailList>
            <Detail term="External reference ID">
              <code className={`mono ${styles.wrap}`}>{event.externalReferenceId}</code>
            </Detail>
            <Detail term="Encore ID">
              <code className="mono">{data.id}</code>
            </Detail>
            <Detail term="Status">
              {data.cancelledAt ? <Badge tone="danger">Cancelled</Badge> : <Badge tone="success">Active</Badge>}
            </Detail>
            {place && <Detail term="Location">{place}</Detail>}
            <Detail term="Received">
              <Time value={data.createdAt} />
            </Detail>
            <Detail term="Last updated">
              <Time value={data.updatedAt} />
            </Detail>
          </DetailList>
          {data.descriptionHtml && (
            // Sanitised on the server (server/lib/html.ts): partner HTML renders as formatting, never as script.
            <div
              className={catalog.note}
              data-testid="event-description"
              dangerouslySetInnerHTML={{ __html: data.descriptionHtml }}
            />
          )}
        </CardBody>
      </SectionCard>

      <SectionCard
        title="Event rules"
        headingId="event-rules-heading"
        description="Resale rules for every show of the event. A rule set on a show, ticket option or price type wins over these."
      >
        <CardBody>
          {eventRules.length ? (
            <RuleGroups groups={eventRules} />
          ) : (
            <p className={catalog.note}>
              No event-wide rules. Partners set them with <code className="mono">POST /v1/events/rules</code>.
            </p>
          )}
        </CardBody>
      </SectionCard>

      <h2 className={styles.sectionTitle}>
        Shows <span className={styles.muted}>({event.shows.length})</span>
      </h2>
      {event.shows.length === 0 && <EmptyState title="This event has no shows" />}
      {event.shows.map((show, i) => (
        <ShowCard
          key={show.showId}
          partnerId={partnerId}
          eventId={eventId}
          eventZone={zoneOf(event.location)}
          show={show}
          meta={data.shows[i]}
          rules={data.ruleGroups.filter((g) => g.showId === show.showId)}
        />
      ))}
    </div>
  );
}

function zoneOf(location: unknown): string | null {
  const zone = (location as { timeZone?: unknown } | null | undefined)?.timeZone;
  return typeof zone === 'string' && zone ? zone : null;
}

function ShowCard({
  partnerId,
  eventId,
  eventZone,
  show,
  meta,
  rules,
}: {
  partnerId: string;
  eventId: string;
  eventZone: string | null;
  show: ApiShow;
  meta: ShowMeta;
  rules: RuleGroup[];
}) {
  const headingId = `show-${meta.id}`;
  // The show's own location overrides the event's (spec: Show.location).
  const venueZone = zoneOf(show.location) ?? eventZone;
  const priceTypes = show.priceTypes ?? [];
  const priceDetail = priceTypes.length > 0 || meta.combinations.length > 0;
  return (
    <SectionCard
      headingId={headingId}
      data-show-id={show.showId}
      title={show.title}
      description={
        <>
          <code className="mono">{show.showId}</code> ·{' '}
          <VenueTime value={meta.startsAt} timeZone={venueZone} sentAs={show.date} />{' '}
          <span className={styles.muted}>(sent as {show.date})</span>
        </>
      }
      actions={
        <ButtonLink href={showTicketsPath(partnerId, eventId, meta.id)} size="sm" variant="primary">
          Tickets ({formatCount(meta.tickets.total)})
        </ButtonLink>
      }
    >
      <CardBody>
        <div className={styles.badges}>
          <ShowBadges
            status={show.status ?? 'LIVE'}
            showRescheduled={show.showRescheduled}
            resaleEnabled={show.resaleEnabled}
          />
          <Badge>{priceDetail ? 'Price Detail pricing' : 'Standard pricing'}</Badge>
          {meta.cancelledAt && (
            <span className={catalog.note}>
              Cancelled <Time value={meta.cancelledAt} />
            </span>
          )}
        </div>

        <TicketOptions show={show} />

        <PriceTypes show={show} />

        <Combinations show={show} meta={meta} />

        <section className={catalog.section} aria-label={`Rules of ${show.title}`}>
          <h3 className={catalog.subheading}>Rules</h3>
          {rules.length ? (
            <RuleGroups groups={rules} />
          ) : (
            <p className={catalog.note}>No rules for this show: the event rules apply.</p>
          )}
        </section>

        <p className={catalog.note}>
          Tickets: {formatCount(meta.tickets.valid)} valid · {formatCount(meta.tickets.invalidated)} invalidated ·{' '}
          {formatCount(meta.tickets.admitted)} admitted
        </p>
      </CardBody>
    </SectionCard>
  );
}

function scopeOf(g: RuleGroup): React.ReactNode {
  const ids = [
    g.ticketOptionId && (
      <span key="o">
        option <code className="mono">{g.ticketOptionId}</code>
      </span>
    ),
    g.priceTypeId && (
      <span key="p">
        price type <code className="mono">{g.priceTypeId}</code>
      </span>
    ),
  ].filter(Boolean);
  return (
    <>
      {SCOPE_LABEL[g.level]}
      {ids.length > 0 && <>: {ids.reduce<React.ReactNode[]>((acc, x, i) => (i ? [...acc, ', ', x] : [x]), [])}</>}
    </>
  );
}

/** Rules by scope, most general first; the most specific rule of a type is the one in force. */
function RuleGroups({ groups }: { groups: RuleGroup[] }) {
  return (
    <ul className={catalog.rules}>
      {groups.map((g) =>
        g.rules.map((r) => (
          <li key={`${g.showId}|${g.ticketOptionId}|${g.priceTypeId}|${r.ruleType}`} className={catalog.rule}>
            <span>
              <Badge>{r.ruleType}</Badge> <span className={catalog.note}>{scopeOf(g)}</span>
            </span>
            <span className={styles.titleCell}>
              <code className={catalog.ruleBody}>{JSON.stringify(r.rules)}</code>
              {r.description && <span className={styles.sub}>{r.description}</span>}
            </span>
          </li>
        )),
      )}
    </ul>
  );
}
