import type { Metadata } from 'next';
import Form from 'next/form';
import { Suspense } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { param } from '@/components/ui/search-params';
import { PageSkeleton } from '@/components/ui/table';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { RulesEditor, TicketExplainer } from '../../_features/rules/rules-editor';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { rulesPath } from '../../_shared/paths';

export const metadata: Metadata = { title: 'Resale rules' };

/**
 * The eligibility rules editor: pick an event to see and set its rules; name a ticket to see why it is
 * (not) sellable. Both choices live in the URL.
 */
export default async function RulesPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const sp = await searchParams;
  const eventRef = param(sp, 'event', 200).trim();
  const ticketId = param(sp, 'ticket', 200).trim();
  const { queryClient, partner } = await loadPartnerPage(partnerId, rulesPath(partnerId), {
    event: eventRef || undefined,
    ticket: ticketId || undefined,
  });
  // Unknown ids are shown by the sections themselves (an error message, not a 404 page).
  if (eventRef) void queryClient.prefetchQuery(trpc.rules.ofEvent.queryOptions({ partnerId, eventRef }));
  if (ticketId) void queryClient.prefetchQuery(trpc.rules.explain.queryOptions({ partnerId, ticketId }));
  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Resale rules"
        description={
          <>
            Who may resell what, when and at what price, for <strong>{partner.name}</strong>: the partner&apos;s rules
            and staff&apos;s, and why a ticket is (not) sellable.
          </>
        }
        links={['events']}
      />
      <SectionCard title="Find" description="An event's rules, or one ticket's verdict.">
        <div className="card-body">
          <Form action={rulesPath(partnerId)} className="toolbar" aria-label="Choose an event or a ticket">
            <Field
              label="Event (externalReferenceId)"
              name="event"
              defaultValue={eventRef}
              key={`e-${eventRef}`}
              maxLength={200}
              autoComplete="off"
            />
            <Field
              label="Ticket (ticketId)"
              name="ticket"
              defaultValue={ticketId}
              key={`t-${ticketId}`}
              maxLength={200}
              autoComplete="off"
            />
            <Button type="submit">Show</Button>
          </Form>
        </div>
      </SectionCard>
      <HydrateClient>
        {ticketId ? (
          <Suspense fallback={<PageSkeleton label="Checking the ticket" />}>
            <TicketExplainer partnerId={partnerId} ticketId={ticketId} />
          </Suspense>
        ) : null}
        {eventRef ? (
          <Suspense fallback={<PageSkeleton label="Loading the rules" />}>
            <RulesEditor partnerId={partnerId} eventRef={eventRef} />
          </Suspense>
        ) : null}
      </HydrateClient>
    </>
  );
}
