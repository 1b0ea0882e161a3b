import { Code, pretty } from './code';
import { SchemaFields } from './schema-fields';
import { PropsTable, SchemaView, usedComponents } from './schema-view';

export type Schema = Record<string, unknown>;
type Examples = Record<string, { summary?: string; value: unknown }>;

function firstExample(examples: Examples | undefined): unknown {
  return examples ? Object.values(examples)[0]?.value : undefined;
}
export interface Operation {
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

/** A body's fields, handed to the browser with only the named schemas they reach. */
function Fields({ schema, components }: { schema: Schema; components: Record<string, Schema> }) {
  return <SchemaFields schema={schema} components={usedComponents(schema, components)} />;
}

/** One operation of the reference, on its own page: what it does, its parameters, an example call, and its request and answer. */
export function OperationSection({
  path,
  method,
  op,
  components,
}: {
  path: string;
  method: string;
  op: Operation;
  components: Record<string, Schema>;
}) {
  const ok = op.responses['200']?.content?.['application/json']?.schema;
  const data = ok && (ok.properties as Record<string, Schema> | undefined)?.data;
  return (
    <section id={op.operationId} className="docs-op">
      <h1>
        <span className={`docs-method m-${method.toLowerCase()}`}>{method}</span> <code>{path}</code>
      </h1>
      <p className="docs-summary">{op.summary}</p>
      {op.description ? <p>{op.description}</p> : null}
      <p className="docs-meta">
        <code>{op.operationId}</code> · {op.security.length ? 'Requires an API key.' : 'No authentication.'}
        {op['x-rate-limit']
          ? ` Limited to ${op['x-rate-limit'].limit} requests per ${op['x-rate-limit'].windowSeconds} s per partner.`
          : ''}
      </p>
      {op.parameters.length ? (
        <>
          <h2>Parameters</h2>
          <PropsTable kind="parameters" columns={['Name', 'In', 'Type', 'Required', 'Notes']}>
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
          </PropsTable>
        </>
      ) : null}
      {op['x-curl'] ? (
        <>
          <h2>Example call</h2>
          <Code label={`curl for ${op.operationId}`}>{op['x-curl']}</Code>
          {op['x-example-note'] ? <p className="docs-meta">{op['x-example-note']}</p> : null}
        </>
      ) : null}
      {op.requestBody ? (
        <>
          <h2>Request body</h2>
          <Fields schema={op.requestBody.content['application/json'].schema} components={components} />
          {op.requestBody.content['application/json'].examples ? (
            <>
              <h2>Request example</h2>
              <Code label={`Request example for ${op.operationId}`}>
                {pretty(firstExample(op.requestBody.content['application/json'].examples))}
              </Code>
            </>
          ) : null}
        </>
      ) : null}
      <h2>Response 200 {data ? <small>(the envelope&apos;s data)</small> : null}</h2>
      {ok ? <Fields schema={(data as Schema) ?? ok} components={components} /> : null}
      {op.responses['200']?.content?.['application/json']?.examples ? (
        <>
          <h2>Response example</h2>
          <Code label={`Response example for ${op.operationId}`}>
            {pretty(firstExample(op.responses['200'].content['application/json'].examples))}
          </Code>
        </>
      ) : null}
      <p className="docs-meta">
        Error statuses:{' '}
        {Object.keys(op.responses)
          .filter((s) => s !== '200')
          .join(', ') || 'none'}{' '}
        (<a href="/docs#errors">their answers</a>)
      </p>
    </section>
  );
}
