import type { Metadata } from 'next';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { allRoutes } from '@/server/http/registry';
import { SchemaView } from './schema-view';
import './docs.css';

export const metadata: Metadata = { title: 'Partner API reference' };
export const dynamic = 'force-dynamic';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json': { schema: Schema } }; $ref?: string }>;
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
        <h2>Errors</h2>
        <p>
          Errors use the same envelope with <code>data: null</code> and{' '}
          <code>errors: {'{ message, code, details? }'}</code>. Validation errors list each bad field in{' '}
          <code>details</code> by its path (e.g. <code>shows[0].title</code>) and where it is (<code>body</code>,{' '}
          <code>query</code>, <code>path</code>). Over a rate limit the answer is 429 with <code>Retry-After</code>.
          Quote the <code>X-Request-Id</code> response header to support.
        </p>
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
              {op.requestBody ? (
                <>
                  <h4>Request body</h4>
                  <SchemaView schema={op.requestBody.content['application/json'].schema} components={components} />
                </>
              ) : null}
              <h4>Response 200 {data ? <small>(the envelope&apos;s data)</small> : null}</h4>
              {ok ? <SchemaView schema={(data as Schema) ?? ok} components={components} /> : null}
              <p className="docs-meta">
                Error statuses:{' '}
                {Object.keys(op.responses)
                  .filter((s) => s !== '200')
                  .join(', ') || 'none'}
              </p>
            </section>
          );
        })}
      </main>
    </div>
  );
}
