import { ButtonLink } from '@/components/ui/button';
import { CardBody, SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { withParams } from '@/components/ui/url';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { AuditEntries } from '../../../audit/_components/audit-entries';

const LATEST = 5;

/** The partner's latest audit entries, and the way to all of them in the global log. */
export async function PartnerAuditSection({ partnerId }: { partnerId: string }) {
  const { items } = await getQueryClient().fetchQuery(trpc.audit.list.queryOptions({ partnerId, limit: LATEST }));
  const all = withParams('/dashboard/audit', { partnerId });
  return (
    <SectionCard
      headingId="audit-heading"
      title="Audit"
      description="The latest changes to this partner's configuration and staff actions on it: who, when, before → after."
      actions={<ButtonLink href={all}>Full audit log</ButtonLink>}
    >
      {items.length ? (
        <AuditEntries items={items} label="Latest audit entries of this partner" />
      ) : (
        <CardBody>
          <EmptyState title="Nothing recorded yet" description="Changes made from now on appear here." />
        </CardBody>
      )}
    </SectionCard>
  );
}
