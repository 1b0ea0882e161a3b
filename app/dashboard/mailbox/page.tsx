import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { SearchForm } from '@/components/ui/search-form';
import { listParams, pageInUrl, type SearchParams } from '@/components/ui/search-params';
import { TableSuspense } from '@/components/ui/table';
import { withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { getQueryClient, HydrateClient, trpc } from '@/server/trpc/server';
import { MailList } from './_components/mail-list';

export const metadata: Metadata = { title: 'Mailbox' };

const PAGE_SIZE = 25;
const MAX_SEARCH = 254; // an e-mail address at most

export default async function MailboxPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { q, page } = listParams(await searchParams, MAX_SEARCH);
  await requireStaff(withParams('/dashboard/mailbox', { q, page: pageInUrl(page) }));
  const input = { to: q || undefined, page, pageSize: PAGE_SIZE };
  void getQueryClient().prefetchQuery(trpc.mail.list.queryOptions(input));
  return (
    <>
      <PageHeader
        title="Mailbox"
        description="Every mail Encore sends fans (sign-in links, listings, sales, purchases, cancellations and refunds), newest first. Without SMTP_URL mails are only stored here, so every flow works without a mail server."
      />
      <SearchForm
        action="/dashboard/mailbox"
        id="mail-search"
        label="Filter mails by recipient"
        placeholder="Recipient e-mail"
        query={q}
        hint="The whole address, in any case."
        maxLength={MAX_SEARCH}
      />
      <HydrateClient>
        <TableSuspense key={`${q}|${page}`} label="Loading mails" rows={6} columns={5}>
          <MailList input={input} />
        </TableSuspense>
      </HydrateClient>
    </>
  );
}
