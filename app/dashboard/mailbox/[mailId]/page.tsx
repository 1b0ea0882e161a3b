import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { MailDetail } from '../_components/mail-detail';

export const metadata: Metadata = { title: 'Mail' };

export default async function MailPage({ params }: { params: Promise<{ mailId: string }> }) {
  const { mailId } = await params;
  await requireStaff(`/dashboard/mailbox/${encodeURIComponent(mailId)}`);
  // Awaited: an unknown mail is a 404 page, not an error inside it.
  const found = await getQueryClient()
    .fetchQuery(trpc.mail.get.queryOptions({ id: mailId }))
    .catch(() => null);
  if (!found) notFound();
  return (
    <>
      <PageHeader
        title={found.subject}
        description={
          <>
            Mail <code className="mono">{found.id}</code> to {found.toAddress}
          </>
        }
        back={{ href: '/dashboard/mailbox', label: 'Mailbox' }}
      />
      <HydrateClient>
        <MailDetail id={mailId} />
      </HydrateClient>
    </>
  );
}
