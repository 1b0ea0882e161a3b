import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DocsShell } from '../../docs-shell';
import { OperationSection } from '../../operation';
import { operationHref } from '../../operation-search';
import { docsReference } from '../../reference';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ operationId: string }> };

/** The operation named in the address, with its neighbours in the reading order; none when unknown. */
async function operationOf({ params }: Props) {
  const { operationId } = await params;
  const { ops } = docsReference();
  const at = ops.findIndex((o) => o.op.operationId === operationId);
  return at < 0 ? null : { entry: ops[at], previous: ops[at - 1], next: ops[at + 1] };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const found = await operationOf(props);
  return { title: found ? `${found.entry.method} ${found.entry.path} · API reference` : 'API reference' };
}

/** One operation of the partner API on a page of its own, so the reference loads on a phone. */
export default async function OperationPage(props: Props) {
  const found = await operationOf(props);
  if (!found) notFound();
  const { entry, previous, next } = found;
  const { groups, components } = docsReference();
  return (
    <DocsShell groups={groups} current={entry.op.operationId}>
      <div className="docs-crumbs">
        <nav aria-label="Breadcrumb">
          <a href="/docs">API reference</a> › <a href={`/docs#tag-${entry.tagSlug}`}>{entry.tag}</a>
        </nav>
        <a href="/docs#operations">Search operations</a>
      </div>
      <OperationSection path={entry.path} method={entry.method} op={entry.op} components={components} />
      <nav className="docs-pager" aria-label="Previous and next operation">
        {previous ? (
          <a href={operationHref(previous.op.operationId)} rel="prev">
            <small>Previous</small> {previous.method} {previous.path}
          </a>
        ) : null}
        {next ? (
          <a href={operationHref(next.op.operationId)} rel="next">
            <small>Next</small> {next.method} {next.path}
          </a>
        ) : null}
      </nav>
    </DocsShell>
  );
}
