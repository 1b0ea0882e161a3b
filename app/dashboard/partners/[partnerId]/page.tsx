import { TRPCError } from '@trpc/server';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { TableSkeleton } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { batchesPath, eventsPath, ticketsPath } from '../_catalog/paths';
import { SearchForm } from '../_catalog/search-form';
import { ApiKeysSection } from '../_components/api-keys-section';
import { IntegrationSection } from '../_components/integration-section';
import { PartnerSettingsSection } from '../_components/partner-settings-section';
import { SalesFeeSection } from '../_components/sales-fee-section';
import { PartnerNav, PartnerSection } from '../_components/partner-nav';
import { WebhooksSection } from '../_components/webhooks-section';

export const metadata: Metadata = { title: 'Partner' };

export default async function PartnerPage({ params }: { params: Promise<{ partnerId: string }> }) {
  const { partnerId } = await params;
  await requireStaff(`/dashboard/partners/${encodeURIComponent(partnerId)}`);

  const queryClient = getQueryClient();
  const partner = await queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch((err: unknown) => {
    if (err instanceof TRPCError && err.code === 'NOT_FOUND') notFound();
    throw err;
  });
  void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId }));
  void queryClient.prefetchQuery(trpc.partners.integration.get.queryOptions({ partnerId }));
  void queryClient.prefetchQuery(trpc.webhooks.endpoint.get.queryOptions({ partnerId }));

  return (
    <>
      <PageHeader
        title={partner.name}
        back={{ href: '/dashboard/partners', label: 'Partners' }}
        actions={
          <>
            <ButtonLink href={eventsPath(partner.id)}>Events</ButtonLink>
            <ButtonLink href={batchesPath(partner.id)}>Ticket batches</ButtonLink>
          </>
        }
      />
      <PartnerNav />
      <PartnerSection id="details">
        <Card>
          <CardBody>
            <dl className="details">
              <div>
                <dt>Partner ID</dt>
                <dd>
                  <code className="mono">{partner.id}</code>
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>
                  <Time value={partner.createdAt} />
                </dd>
              </div>
            </dl>
          </CardBody>
        </Card>
      </PartnerSection>
      <HydrateClient>
        <PartnerSection id="keys">
          <Suspense fallback={<TableSkeleton rows={3} columns={5} label="Loading API keys" />}>
            <ApiKeysSection
              partnerId={partner.id}
              kind="partner"
              title="API keys"
              description="Authenticate the partner's server on the Partner API. Send one as the Authorization header."
            />
            <ApiKeysSection
              partnerId={partner.id}
              kind="channels"
              title="Channels API keys"
              description="Keys starting with sk_ch_ open only the Channels API."
            />
          </Suspense>
        </PartnerSection>
        <PartnerSection id="integration">
          <Suspense fallback={<TableSkeleton rows={4} columns={2} label="Loading integration settings" />}>
            <IntegrationSection partnerId={partner.id} />
          </Suspense>
        </PartnerSection>
        <PartnerSection id="fees">
          <Suspense fallback={<TableSkeleton rows={2} columns={2} label="Loading the primary sales fee" />}>
            <SalesFeeSection partnerId={partner.id} />
          </Suspense>
        </PartnerSection>
        <PartnerSection id="webhooks">
          <Suspense fallback={<TableSkeleton rows={4} columns={2} label="Loading webhook settings" />}>
            <WebhooksSection partnerId={partner.id} />
          </Suspense>
        </PartnerSection>
        <PartnerSection id="settings">
          <Suspense fallback={<TableSkeleton rows={2} columns={2} label="Loading partner settings" />}>
            <PartnerSettingsSection partnerId={partner.id} />
          </Suspense>
        </PartnerSection>
      </HydrateClient>
      <PartnerSection id="catalogue">
        <Card aria-labelledby="catalogue-heading">
          <CardHeader
            headingId="catalogue-heading"
            title="Catalogue and tickets"
            description="Find a ticket by id or buyer e-mail across all of the partner's events. Events and ticket batches are linked at the top of the page."
          />
          <CardBody>
            <SearchForm
              action={ticketsPath(partner.id)}
              id="partner-ticket-search"
              label="Find a ticket"
              placeholder="Ticket id, tkt_… or buyer e-mail"
              query=""
            />
          </CardBody>
        </Card>
      </PartnerSection>
    </>
  );
}
