import type { Metadata } from 'next';
import Form from 'next/form';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { param, type SearchParams } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { requireStaff } from '@/server/auth/session';
import { auditQuery } from '@/server/modules/audit';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { AuditEntries } from './_components/audit-entries';
import styles from './_components/audit.module.css';

export const metadata: Metadata = { title: 'Audit log' };

const FILTERS = ['partnerId', 'actor', 'action', 'from', 'to', 'q'] as const;
const PAGE_SIZE = 50;

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, param(sp, f, 200)])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const cursor = param(sp, 'cursor', 20);
  await requireStaff(withParams('/dashboard/audit', { ...filters, cursor }));

  // A bad filter (a date that is not one) is named, and the log is shown without it.
  const parsed = auditQuery.safeParse({ ...filters, cursor: cursor || undefined, limit: PAGE_SIZE });
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
  const input = parsed.success
    ? parsed.data
    : auditQuery.parse({ ...filters, from: undefined, to: undefined, limit: PAGE_SIZE });
  const page = await getQueryClient().fetchQuery(trpc.audit.list.queryOptions(input));
  const filtered = FILTERS.some((f) => filters[f]);
  const older = page.nextCursor ? withParams('/dashboard/audit', { ...filters, cursor: page.nextCursor }) : null;

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every staff action and every change to a partner's configuration: who, when, what, and each changed field before → after. Secrets are never recorded; entries cannot be changed or deleted."
      />
      <Form action="/dashboard/audit" className={styles.filters} aria-label="Filter the audit log">
        <Field label="Partner ID" name="partnerId" defaultValue={filters.partnerId} placeholder="ptr_…" />
        <Field label="Who" name="actor" defaultValue={filters.actor} placeholder="E-mail or key prefix" />
        <Field label="Action" name="action" defaultValue={filters.action} placeholder="e.g. partner.fees" />
        <Field label="From" name="from" type="date" defaultValue={filters.from} />
        <Field label="To" name="to" type="date" defaultValue={filters.to} />
        <Field label="Text" name="q" type="search" defaultValue={filters.q} placeholder="Any id or value" />
        <div className="form-actions">
          <Button type="submit">Filter</Button>
          {filtered && <ButtonLink href="/dashboard/audit">Clear</ButtonLink>}
        </div>
      </Form>
      {problems.length > 0 && (
        <Alert tone="error" title="A filter was not applied">
          {problems.join('; ')}
        </Alert>
      )}
      <Card>
        {page.items.length ? (
          <AuditEntries items={page.items} label="Audit log entries, newest first" />
        ) : (
          <EmptyState
            title={filtered ? 'No entry matches these filters' : 'Nothing recorded yet'}
            description={filtered ? 'Widen the dates or clear a filter.' : 'Changes made from now on appear here.'}
          />
        )}
      </Card>
      <nav className={styles.more} aria-label="Audit log pages">
        {cursor && <ButtonLink href={withParams('/dashboard/audit', filters)}>Newest</ButtonLink>}
        {older ? (
          <ButtonLink href={older} rel="next">
            Older →
          </ButtonLink>
        ) : (
          page.items.length > 0 && <span className="muted">End of the log</span>
        )}
      </nav>
    </>
  );
}
