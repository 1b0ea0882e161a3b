import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { trpc } from '@/server/trpc/server';
import { TicketStatus } from '../../../_features/catalog/badges';
import { TicketDetail } from '../../../_features/tickets/ticket-detail';
import { loadPartnerPage, type PartnerPageProps } from '../../../_shared/partner-page';
import { ticketPath, ticketsPath } from '../../../_shared/paths';

export const metadata: Metadata = { title: 'Ticket' };

export default async function TicketPage({ params }: Pick<PartnerPageProps<{ ticketId: string }>, 'params'>) {
  const { partnerId, ticketId } = await params;
  const { data: t } = await loadPartnerPage(partnerId, ticketPath(partnerId, ticketId), {}, (queryClient) =>
    queryClient.fetchQuery(trpc.catalog.ticket.queryOptions({ partnerId, ticketId })),
  );

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
      <TicketDetail partnerId={partnerId} ticket={t} />
    </>
  );
}
