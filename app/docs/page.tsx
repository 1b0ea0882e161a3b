import type { Metadata } from 'next';
import { type SearchParams, param } from '@/components/ui/search-params';
import { Code, pretty } from './code';
import { DocsShell, GUIDE_SECTIONS } from './docs-shell';
import { CHANGELOG, INTEGRATION_ORDER, feedExample, verificationExample } from './guide';
import { IdempotencySection } from './idempotency';
import { OperationIndex } from './operation-index';
import { MAX_OPERATION_SEARCH, operationHref } from './operation-search';
import { docsReference } from './reference';
import { QuickStartSection } from './quick-start';
import { WebhooksSection } from './webhooks';

export const metadata: Metadata = { title: 'Partner API reference' };
export const dynamic = 'force-dynamic';

/**
 * The reference's overview: the guide (authentication, test mode, integration order, quick start, errors,
 * idempotency, webhooks, the interfaces a partner exposes, versioning) and the index of every operation,
 * searchable; each operation has a page of its own (operations/[operationId]).
 */
export default async function DocsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { doc, groups, errorResponses } = docsReference();
  const query = param(await searchParams, 'q', MAX_OPERATION_SEARCH);
  return (
    <DocsShell groups={groups}>
      <h1>{doc.info.title}</h1>
      <p>
        Version {doc.info.version} · OpenAPI {doc.openapi} · base URL <code>{doc.servers[0].url}</code>
      </p>
      <p>{doc.info.description}</p>
      <nav className="docs-toc" aria-label="On this page">
        <ul>
          {GUIDE_SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <h2 id="authentication">Authentication</h2>
      <p>
        Send your API key in the <code>Authorization</code> header, bare (<code>Authorization: sk_live_…</code>) or as{' '}
        <code>Bearer sk_live_…</code>. A missing, unknown or revoked key answers 401; a channels key (
        <code>sk_ch_…</code>) on the partner API, or a partner key on the Channels API, answers 403. Check a key with{' '}
        <code>GET /v1/me</code>.
      </p>
      <h2 id="test-mode">Test mode</h2>
      <p>
        Every partner has a test twin: a test key (<code>sk_test_…</code>, and <code>sk_test_ch_…</code> for channels)
        opens the same API on a data space of its own (events, tickets, listings, leads, channels, webhooks) that live
        keys never see, and the reverse. Its payments always use the sandbox (test cards, no money moves), and fan pages
        reached through test data show a &ldquo;Test mode&rdquo; ribbon. <code>GET /v1/me</code> answers{' '}
        <code>mode</code>: <code>live</code> or <code>test</code>. Staff can wipe the test data at any time.
      </p>
      <h2 id="integration-order">Integration order</h2>
      <ol>
        {INTEGRATION_ORDER.map(([step, text]) => (
          <li key={step}>
            <strong>{step}</strong>: {text}
          </li>
        ))}
      </ol>
      <p>
        Each operation&apos;s page has a curl line to paste. Taken in the order of the <a href="#operations">index</a>,
        they follow this order and work when pasted in sequence (they are sent to the real handlers in our test suite):
        set <code>ENCORE_KEY</code> to your key, start at{' '}
        <a href={operationHref(groups[0].ops[0].id)}>the first operation</a> and follow each page&apos;s <em>Next</em>{' '}
        link.
      </p>
      <QuickStartSection baseUrl={doc.servers[0].url} />
      <h2 id="errors">Errors</h2>
      <p>
        Errors use the same envelope with <code>data: null</code> and{' '}
        <code>errors: {'{ message, code, details? }'}</code>. Validation errors list each bad field in{' '}
        <code>details</code> by its path (e.g. <code>shows[0].title</code>) and where it is (<code>body</code>,{' '}
        <code>query</code>, <code>path</code>). Over a rate limit the answer is 429 with <code>Retry-After</code>. Quote
        the <code>X-Request-Id</code> response header to support. Each operation lists the statuses it can answer.
      </p>
      {Object.entries(errorResponses).map(([name, r]) => (
        <div key={name} className="docs-error">
          <h4>
            {name.replace('Error', '')} — {r.description}
          </h4>
          <Code label={`Example ${name.replace('Error', '')} answer`}>
            {pretty(r.content['application/json'].example)}
          </Code>
        </div>
      ))}
      <IdempotencySection baseUrl={doc.servers[0].url} />
      <h2 id="operations">Operations</h2>
      <p>
        Every operation of the API under its tag; each opens on a page of its own with its parameters, an example call,
        the request and answer fields and examples.
      </p>
      <OperationIndex groups={groups} query={query} />
      <WebhooksSection />
      <h2 id="partner-interfaces">Interfaces you expose (Encore calls them)</h2>
      <h3>Ticket verification</h3>
      <p>
        Encore calls{' '}
        <code>
          GET {'{your verification URL}'}/tickets?user={'{userEmail}'}
        </code>{' '}
        when a user enters the resale flow, before creating a listing, before confirming a sale and before completing a
        resale purchase; it never relies on cached ownership. Answer only the user&apos;s currently valid tickets
        (others omitted or with a status other than <code>VALID</code>), within 5 seconds and 1 MB. Field names may
        differ if your account manager configures a mapping. Authenticate Encore with a secret header and/or an address
        allowlist.
      </p>
      <p id="sync-on-demand">
        You need not push every ticket: ownership is synchronised on demand. With a verification URL set, the selling
        entrypoints (<code>GET /v1/marketplace/sellingflow/url/entrypoint</code> and <code>…/url/order/entrypoint</code>
        ) answer a URL for a ticket or order Encore was never sent. When the fan opens it (signed in), Encore asks this
        endpoint for that fan, stores only the tickets you list for them (for an order, those tagged{' '}
        <code>order:&lt;orderId&gt;</code>) and opens the sell form; a ticket you do not list for that fan is refused on
        the page, stating why. Without a verification URL those calls answer 404.
      </p>
      <Code label="Verification request">{verificationExample.request}</Code>
      <Code label="Verification answer">{pretty(verificationExample.answer)}</Code>
      <h3>Event feed</h3>
      <p>
        A public JSON endpoint Encore pulls: one event (or an array of events) with <code>externalReferenceId</code> and{' '}
        <code>shows</code>; each show has <code>showId</code>, <code>status</code>, <code>dates.startsAt</code> (ISO
        8601 with offset), <code>ticketOptions</code>, and optionally <code>priceTypes</code> with the then mandatory{' '}
        <code>combinations</code>. Answer within 15 seconds and 5 MB.
      </p>
      <Code label="Feed request">{feedExample.request}</Code>
      <Code label="Feed answer">{pretty(feedExample.answer)}</Code>
      <h2 id="versioning">Versioning and changelog</h2>
      <p>
        Paths carry the major version (<code>/v1</code>). Within v1, changes are additive only: new operations, new
        optional request fields, new response fields and new webhook families or actions. Ignore unknown fields and
        actions. A breaking change gets a new major path, with both versions served during the migration.
      </p>
      <ul>
        {CHANGELOG.map(([version, text]) => (
          <li key={version}>
            <strong>{version}</strong>: {text}
          </li>
        ))}
      </ul>
    </DocsShell>
  );
}
