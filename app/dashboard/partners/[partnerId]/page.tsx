import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardBody, SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { PageHeader } from '@/components/ui/page-header';
import { SearchForm } from '@/components/ui/search-form';
import { Time } from '@/components/ui/time';
import { may, memberMay } from '@/server/lib/staff-roles';
import { isPartnerUser, type StaffSession } from '@/server/modules/staff';
import { resaleEntryUrl } from '@/server/modules/fan-pages';
import { HydrateClient, trpc } from '@/server/trpc/server';
import { ChannelsSection } from '../_features/channels/channels-section';
import { IntegrationSection } from '../_features/integration/integration-section';
import { ApiKeysSection } from '../_features/keys/api-keys-section';
import { PublishableKeysSection } from '../_features/keys/publishable-keys-section';
import { MarketTermsSection } from '../_features/market/market-terms-section';
import { PartnerNav, PartnerSection, type PartnerSectionId } from '../_features/overview/partner-nav';
import { SalesFeeSection } from '../_features/fees/sales-fee-section';
import { PartnerProtectionSection } from '../_features/protection/partner-protection-section';
import { PartnerSettingsSection } from '../_features/settings/partner-settings-section';
import { PartnerAuditSection } from '../_features/audit/partner-audit-section';
import { ReturnOriginsWarning, WidgetOriginsWarning } from '../_features/settings/origins-form';
import { WebhooksSection } from '../_features/webhooks/webhooks-section';
import { TestModeSection } from '../_features/test-mode/test-mode-section';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { loadPartnerPage, type PartnerPageProps } from '../_shared/partner-page';
import {
  bannersPath,
  batchesPath,
  channelsPath,
  rulesPath,
  eventsPath,
  statementPath,
  teamPath,
  marketPath,
  partnerPath,
  ticketsPath,
} from '../_shared/paths';

export const metadata: Metadata = { title: 'Partner' };

/** The sections Encore's staff alone see (their procedures are staff-only). */
const STAFF_SECTIONS: PartnerSectionId[] = ['channels', 'integration', 'audit'];

/**
 * One partner: its keys, test mode, webhooks, terms and settings. Encore's staff (every role reads; an admin
 * changes) and the partner's own users (`read`; owner and developer run the integration), who do not see
 * the sections that are Encore's alone: channels, integration, audit.
 */
export default async function PartnerPage({ params }: Pick<PartnerPageProps, 'params'>) {
  const { partnerId } = await params;
  const { queryClient, partner, member } = await loadPartnerPage(partnerId, partnerPath(partnerId));
  const staff = isPartnerUser(member) ? null : member;
  void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId }));
  if (staff) {
    void queryClient.prefetchQuery(trpc.partners.integration.get.queryOptions({ partnerId }));
    void queryClient.prefetchQuery(trpc.channels.list.queryOptions({ partnerId }));
  }
  void queryClient.prefetchQuery(trpc.webhooks.endpoint.get.queryOptions({ partnerId }));
  void queryClient.prefetchQuery(trpc.market.terms.get.queryOptions({ partnerId }));
  void queryClient.prefetchQuery(trpc.protection.partner.queryOptions({ partnerId }));
  void queryClient.prefetchQuery(trpc.protection.reissues.queryOptions({ partnerId }));
  const livePartnerId = partner.livePartnerId ?? partner.id;
  const setsOrigins = memberMay(member, 'admin', 'develop');
  const setter = staff ? 'An admin' : 'An owner or developer';
  const testMode = partner.mode === 'test';
  // The test twin's keys are listed in the Test mode section: read here, so the section renders on the server.
  const twin = await queryClient.fetchQuery(trpc.partners.testMode.get.queryOptions({ partnerId: livePartnerId }));
  if (twin && !testMode) void queryClient.prefetchQuery(trpc.partners.keys.list.queryOptions({ partnerId: twin.id }));
  // The live partner's page lists its twin's pk_test_ key beside its own pk_live_ key.
  const testKeysOf = twin && !testMode ? twin.id : undefined;
  for (const id of [partner.id, testKeysOf].filter((x) => x !== undefined)) {
    void queryClient.prefetchQuery(trpc.partners.publishableKeys.get.queryOptions({ partnerId: id }));
  }

  return (
    <>
      <PageHeader
        title={
          testMode ? (
            <>
              {partner.name} <Badge tone="warning">Test mode</Badge>
            </>
          ) : (
            partner.name
          )
        }
        back={
          testMode
            ? { href: partnerPath(livePartnerId), label: `${partner.name} (live)` }
            : staff
              ? { href: '/dashboard/partners', label: 'Partners' }
              : undefined
        }
        actions={<PartnerLinks partnerId={partner.id} staff={staff} />}
      />
      <PartnerNav without={staff ? [] : STAFF_SECTIONS} />
      {testMode ? (
        <Alert tone="warning" title="Test data">
          This is the test twin of{' '}
          <a href={partnerPath(livePartnerId)} data-testid="live-partner-link">
            {partner.name}
          </a>
          : what its sk_test_ keys created. Live keys never see it; its payments use the sandbox.
        </Alert>
      ) : null}
      <ReturnOriginsWarning origins={partner.returnOrigins} admin={setsOrigins} setter={setter} />
      <WidgetOriginsWarning origins={partner.widgetOrigins} admin={setsOrigins} setter={setter} />
      <PartnerSection id="details">
        <Card>
          <CardBody>
            <DetailList>
              <Detail term="Partner ID">
                <code className="mono">{partner.id}</code>
              </Detail>
              <Detail term="Created">
                <Time value={partner.createdAt} />
              </Detail>
              <Detail term="Resale entry page">
                <a href={resaleEntryUrl(partner.id)} data-testid="resale-entry-url">
                  <code className="mono">{resaleEntryUrl(partner.id)}</code>
                </a>
                <p className="muted">
                  One link for the partner&apos;s site or app: fans sign in and resell any of their tickets. Also in GET
                  /v1/me.
                </p>
              </Detail>
            </DetailList>
          </CardBody>
        </Card>
      </PartnerSection>
      <HydrateClient>
        <PartnerSection id="keys" loading={{ label: 'Loading API keys', rows: 3, columns: 5 }}>
          <ApiKeysSection
            partnerId={partner.id}
            kind="partner"
            title="API keys"
            description="Authenticate the partner's server on the Partner API. Send one as the Authorization header."
          />
          <PublishableKeysSection partnerId={partner.id} testPartnerId={testKeysOf} />
        </PartnerSection>
        <PartnerSection id="test-mode" loading={{ label: 'Loading test mode', rows: 2, columns: 4 }}>
          <TestModeSection partnerId={livePartnerId} testPartnerId={testMode ? partner.id : undefined} />
        </PartnerSection>
        {staff ? (
          <>
            <PartnerSection id="channels" loading={{ label: 'Loading channels', rows: 2, columns: 5 }}>
              <ChannelsSection partnerId={partner.id} compact />
            </PartnerSection>
            <PartnerSection id="integration" loading={{ label: 'Loading integration settings', rows: 4, columns: 2 }}>
              <IntegrationSection partnerId={partner.id} />
            </PartnerSection>
          </>
        ) : null}
        <PartnerSection id="fees" loading={{ label: 'Loading the primary sales fee', rows: 2, columns: 2 }}>
          <SalesFeeSection partnerId={partner.id} />
        </PartnerSection>
        <PartnerSection id="market" loading={{ label: 'Loading the market terms', rows: 3, columns: 2 }}>
          <MarketTermsSection partnerId={partner.id} />
        </PartnerSection>
        <PartnerSection id="protection" loading={{ label: 'Loading ticket protection', rows: 3, columns: 2 }}>
          <PartnerProtectionSection partnerId={partner.id} />
        </PartnerSection>
        <PartnerSection id="webhooks" loading={{ label: 'Loading webhook settings', rows: 4, columns: 2 }}>
          <WebhooksSection partnerId={partner.id} />
        </PartnerSection>
        <PartnerSection id="settings" loading={{ label: 'Loading partner settings', rows: 2, columns: 2 }}>
          <PartnerSettingsSection partnerId={partner.id} />
        </PartnerSection>
      </HydrateClient>
      <PartnerSection id="catalogue">
        <SectionCard
          headingId="catalogue-heading"
          title="Catalogue and tickets"
          description="Find a ticket by id or buyer e-mail across all of the partner's events. Events and ticket batches are linked at the top of the page."
        >
          <CardBody>
            <SearchForm
              action={ticketsPath(partner.id)}
              id="partner-ticket-search"
              label="Find a ticket"
              placeholder="Ticket id, tkt_… or buyer e-mail"
              query=""
            />
          </CardBody>
        </SectionCard>
      </PartnerSection>
      {staff ? (
        <PartnerSection id="audit" loading={{ label: 'Loading the audit log', rows: 3, columns: 4 }}>
          <PartnerAuditSection partnerId={partner.id} />
        </PartnerSection>
      ) : null}
    </>
  );
}

/** The partner's other pages; a partner's user is not shown Encore's (money across partners, channels, users). */
function PartnerLinks({ partnerId, staff }: { partnerId: string; staff: StaffSession | null }) {
  return (
    <>
      <ButtonLink href={eventsPath(partnerId)}>Events</ButtonLink>
      <ButtonLink href={batchesPath(partnerId)}>Ticket batches</ButtonLink>
      <ButtonLink href={marketPath(partnerId)}>Market</ButtonLink>
      {staff ? (
        <ButtonLink href={`/dashboard/money?partner=${encodeURIComponent(partnerId)}`}>
          {may(staff.role, 'money') ? 'Money and exports' : 'Money'}
        </ButtonLink>
      ) : (
        <ButtonLink href={statementPath(partnerId)}>Fees and payouts</ButtonLink>
      )}
      <ButtonLink href={bannersPath(partnerId)}>Banners</ButtonLink>
      <ButtonLink href={rulesPath(partnerId)}>Resale rules</ButtonLink>
      <ButtonLink href={`${partnerPath(partnerId)}/leads`}>Leads</ButtonLink>
      {staff ? <ButtonLink href={channelsPath(partnerId)}>Channels</ButtonLink> : null}
      {staff ? <ButtonLink href={teamPath(partnerId)}>Partner users</ButtonLink> : null}
    </>
  );
}
