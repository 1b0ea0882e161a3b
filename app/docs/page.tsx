import type { Metadata } from 'next';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { allRoutes } from '@/server/http/registry';
import {
  CHANGELOG,
  INTEGRATION_ORDER,
  VERIFY_NODE,
  WEBHOOK_HEADERS,
  feedExample,
  verificationExample,
  webhookExamples,
} from './guide';
import { SchemaView } from './schema-view';
import './docs.css';

export const metadata: Metadata = { title: 'Partner API reference' };
export const dynamic = 'force-dynamic';

type Schema = Record<string, unknown>;
type Examples = Record<string, { summary?: string; value: unknown }>;

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** A code block that scrolls inside itself, so the page never scrolls sideways on a phone. */
function Code({ children, label }: { children: string; label?: string }) {
  return (
    <pre className="docs-code" tabIndex={0} aria-label={label}>
      <code>{children}</code>
    </pre>
  );
}

function firstExample(examples: Examples | undefined): unknown {
  return examples ? Object.values(examples)[0]?.value : undefined;
}
interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema; examples?: Examples } } };
  responses: Record<
    string,
    { content?: { 'application/json': { schema: Schema; examples?: Examples } }; $ref?: string }
  >;
  'x-curl'?: string;
  'x-example-note'?: string;
  'x-rate-limit'?: { limit: number; windowSeconds: number };
}

export default function DocsPage() {
  const doc = buildOpenApiDocument(allRoutes);
  const components = doc.components.schemas as Record<string, Schema>;
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      op,
    })),
  );
  const tags = [...new Set(ops.map((o) => o.op.tags[0]))];
  const errorResponses = doc.components.responses as Record<
    string,
    { description: string; content: { 'application/json': { example: unknown } } }
  >;

  return (
    <div className="docs">
      <nav className="docs-nav" aria-label="Endpoints">
        <p className="docs-brand">Encore API</p>
        <a href="/v1/openapi.json">openapi.json</a>
        {tags.map((tag) => (
          <div key={tag}>
            <p className="docs-tag">{tag}</p>
            <ul>
              {ops
                .filter((o) => o.op.tags[0] === tag)
                .map((o) => (
                  <li key={o.op.operationId}>
                    <a href={`#${o.op.operationId}`}>
                      <span className={`docs-method m-${o.method.toLowerCase()}`}>{o.method}</span> {o.path}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main className="docs-main">
        <h1>{doc.info.title}</h1>
        <p>
          Version {doc.info.version} · OpenAPI {doc.openapi} · base URL <code>{doc.servers[0].url}</code>
        </p>
        <p>{doc.info.description}</p>
        <h2>Authentication</h2>
        <p>
          Send your API key in the <code>Authorization</code> header, bare (<code>Authorization: sk_live_…</code>) or as{' '}
          <code>Bearer sk_live_…</code>. A missing, unknown or revoked key answers 401; a channels key (
          <code>sk_ch_…</code>) on the partner API, or a partner key on the Channels API, answers 403. Check a key with{' '}
          <code>GET /v1/me</code>.
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
          The examples below follow this order and work when pasted in sequence (they are sent to the real handlers in
          our test suite): set <code>ENCORE_KEY</code> to your key and run the curl lines top to bottom.
        </p>
        <h2 id="errors">Errors</h2>
        <p>
          Errors use the same envelope with <code>data: null</code> and{' '}
          <code>errors: {'{ message, code, details? }'}</code>. Validation errors list each bad field in{' '}
          <code>details</code> by its path (e.g. <code>shows[0].title</code>) and where it is (<code>body</code>,{' '}
          <code>query</code>, <code>path</code>). Over a rate limit the answer is 429 with <code>Retry-After</code>.
          Quote the <code>X-Request-Id</code> response header to support. Each operation lists the statuses it can
          answer.
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
        <h2 id="operations">Operations</h2>
        {ops.map(({ path, method, op }) => {
          const ok = op.responses['200']?.content?.['application/json']?.schema;
          const data = ok && (ok.properties as Record<string, Schema> | undefined)?.data;
          return (
            <section key={op.operationId} id={op.operationId} className="docs-op">
              <h3>
                <span className={`docs-method m-${method.toLowerCase()}`}>{method}</span> <code>{path}</code>
              </h3>
              <p className="docs-summary">{op.summary}</p>
              {op.description ? <p>{op.description}</p> : null}
              <p className="docs-meta">
                {op.security.length ? 'Requires an API key.' : 'No authentication.'}
                {op['x-rate-limit']
                  ? ` Limited to ${op['x-rate-limit'].limit} requests per ${op['x-rate-limit'].windowSeconds} s per partner.`
                  : ''}
              </p>
              {op.parameters.length ? (
                <>
                  <h4>Parameters</h4>
                  <table className="docs-props">
                    <thead>
                      <tr>
                        <th>Name</th>
                        <th>In</th>
                        <th>Type</th>
                        <th>Required</th>
                        <th>Notes</th>
                      </tr>
                    </thead>
                    <tbody>
                      {op.parameters.map((p) => (
                        <tr key={`${p.in}-${p.name}`}>
                          <td>
                            <code>{p.name}</code>
                          </td>
                          <td>{p.in}</td>
                          <td>
                            <SchemaView schema={p.schema} components={components} />
                          </td>
                          <td>{p.required ? 'yes' : 'no'}</td>
                          <td>{p.description ?? ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              ) : null}
              {op['x-curl'] ? (
                <>
                  <h4>Example call</h4>
                  <Code label={`curl for ${op.operationId}`}>{op['x-curl']}</Code>
                  {op['x-example-note'] ? <p className="docs-meta">{op['x-example-note']}</p> : null}
                </>
              ) : null}
              {op.requestBody ? (
                <>
                  <h4>Request body</h4>
                  <SchemaView schema={op.requestBody.content['application/json'].schema} components={components} />
                  {op.requestBody.content['application/json'].examples ? (
                    <>
                      <h4>Request example</h4>
                      <Code label={`Request example for ${op.operationId}`}>
                        {pretty(firstExample(op.requestBody.content['application/json'].examples))}
                      </Code>
                    </>
                  ) : null}
                </>
              ) : null}
              <h4>Response 200 {data ? <small>(the envelope&apos;s data)</small> : null}</h4>
              {ok ? <SchemaView schema={(data as Schema) ?? ok} components={components} /> : null}
              {op.responses['200']?.content?.['application/json']?.examples ? (
                <>
                  <h4>Response example</h4>
                  <Code label={`Response example for ${op.operationId}`}>
                    {pretty(firstExample(op.responses['200'].content['application/json'].examples))}
                  </Code>
                </>
              ) : null}
              <p className="docs-meta">
                Error statuses:{' '}
                {Object.keys(op.responses)
                  .filter((s) => s !== '200')
                  .join(', ') || 'none'}
              </p>
            </section>
          );
        })}
        <h2 id="webhooks">Webhooks</h2>
        <p>
          Encore sends a <code>POST</code> with a JSON body <code>{'{ family, action, data }'}</code> to the URL you
          give your account manager (HTTPS with a valid certificate; there is no registration endpoint).
        </p>
        {webhookExamples.map((w) => (
          <div key={w.action}>
            <h4>
              <code>{w.action}</code>
            </h4>
            <p>{w.when}</p>
            <Code label={`Webhook ${w.action}`}>{pretty({ family: w.family, action: w.action, data: w.data })}</Code>
          </div>
        ))}
        <h3>Delivery rules</h3>
        <ul>
          <li>
            Delivered only when your endpoint answers <strong>200, 201, 202 or 204</strong>. Anything else, a redirect
            (not followed), a timeout or a connection error is a failure.
          </li>
          <li>
            Retries never stop: the interval grows from 5 seconds to 8 minutes over 50 retries, then every 12 to 24
            hours until accepted. A long outage makes messages arrive late.
          </li>
          <li>
            <strong>At least once</strong>: a message may arrive more than once (e.g. your 2xx was lost). The{' '}
            <code>webhook-id</code> header is the same on every attempt of a message; drop ids you already processed.
            Order between messages is not guaranteed.
          </li>
          <li>
            Answer quickly (queue the work); a slow answer counts as a failure and is retried. Optionally Encore also
            sends a static secret header you agree with your account manager.
          </li>
        </ul>
        <h3>Verifying the signature (Standard Webhooks)</h3>
        <p>
          Every request is signed per the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme:
          HMAC-SHA256 over <code>{'${webhook-id}.${webhook-timestamp}.${raw body}'}</code> with your{' '}
          <code>whsec_…</code> secret (base64 after the prefix), sent as <code>v1,&lt;base64&gt;</code> in{' '}
          <code>webhook-signature</code> (several space-separated during a secret rotation).
        </p>
        <Code label="Webhook request headers">{WEBHOOK_HEADERS}</Code>
        <Code label="Verifying a webhook in Node">{VERIFY_NODE}</Code>
        <h2 id="partner-interfaces">Interfaces you expose (Encore calls them)</h2>
        <h3>Ticket verification</h3>
        <p>
          Encore calls{' '}
          <code>
            GET {'{your verification URL}'}/tickets?user={'{userEmail}'}
          </code>{' '}
          when a user enters the resale flow, before creating a listing, before confirming a sale and before completing
          a resale purchase; it never relies on cached ownership. Answer only the user&apos;s currently valid tickets
          (others omitted or with a status other than <code>VALID</code>), within 5 seconds and 1 MB. Field names may
          differ if your account manager configures a mapping. Authenticate Encore with a secret header and/or an
          address allowlist.
        </p>
        <Code label="Verification request">{verificationExample.request}</Code>
        <Code label="Verification answer">{pretty(verificationExample.answer)}</Code>
        <h3>Event feed</h3>
        <p>
          A public JSON endpoint Encore pulls: one event (or an array of events) with <code>externalReferenceId</code>{' '}
          and <code>shows</code>; each show has <code>showId</code>, <code>status</code>, <code>dates.startsAt</code>{' '}
          (ISO 8601 with offset), <code>ticketOptions</code>, and optionally <code>priceTypes</code> with the then
          mandatory <code>combinations</code>. Answer within 15 seconds and 5 MB.
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
      </main>
    </div>
  );
}
