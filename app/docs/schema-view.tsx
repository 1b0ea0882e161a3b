import type { ReactNode } from 'react';

type Schema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * The named schemas `schema` reaches through `$ref`, and theirs: what a SchemaView of it reads, so a page
 * hands the browser those few rather than the document's every schema.
 */
export function usedComponents(schema: unknown, components: Record<string, Schema>): Record<string, Schema> {
  const used: Record<string, Schema> = {};
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const ref = (node as Schema).$ref;
      if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
        const name = ref.slice(REF_PREFIX.length);
        if (!(name in used) && components[name]) {
          used[name] = components[name];
          visit(components[name]);
        }
      }
      Object.values(node).forEach(visit);
    }
  };
  visit(schema);
  return used;
}

function resolve(schema: Schema, components: Record<string, Schema>): { schema: Schema; name?: string } {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
    const name = ref.slice(REF_PREFIX.length);
    return { schema: components[name] ?? {}, name };
  }
  return { schema };
}

function typeLabel(schema: Schema, components: Record<string, Schema>): string {
  const { schema: s, name } = resolve(schema, components);
  if (name) return name;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map((x) => typeLabel(x, components)).join(' | ');
  if (Array.isArray(s.oneOf)) return (s.oneOf as Schema[]).map((x) => typeLabel(x, components)).join(' | ');
  if (s.type === 'array' && s.items) return `array of ${typeLabel(s.items as Schema, components)}`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return typeof s.type === 'string' ? s.type : 'any';
}

function constraints(s: Schema): string {
  const parts: string[] = [];
  if (s.minLength !== undefined) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.minItems !== undefined) parts.push(`at least ${s.minItems} item(s)`);
  if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} item(s)`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (s.format) parts.push(String(s.format));
  if (s.pattern) parts.push(`pattern ${s.pattern}`);
  return parts.join(', ');
}

/** Renders a JSON Schema (2020-12, as OpenAPI 3.1 uses it) as nested property tables. */
export function SchemaView({
  schema,
  components,
  depth = 0,
}: {
  schema: Schema;
  components: Record<string, Schema>;
  depth?: number;
}) {
  const { schema: s } = resolve(schema, components);
  const target = s.type === 'array' && s.items ? resolve(s.items as Schema, components).schema : s;
  const props = target.properties as Record<string, Schema> | undefined;
  if (!props || depth > 4) {
    return <code className="docs-type">{typeLabel(schema, components)}</code>;
  }
  const required = new Set((target.required as string[] | undefined) ?? []);
  return (
    <PropsTable kind="fields" columns={['Field', 'Type', 'Required', 'Notes']}>
      {Object.entries(props).map(([name, p]) => {
        const inner = resolve(p, components).schema;
        const innerTarget =
          inner.type === 'array' && inner.items ? resolve(inner.items as Schema, components).schema : inner;
        return (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <code className="docs-type">{typeLabel(p, components)}</code>
              {innerTarget.properties ? (
                <details>
                  <summary>fields</summary>
                  <SchemaView schema={p} components={components} depth={depth + 1} />
                </details>
              ) : null}
            </td>
            <td>{required.has(name) ? 'yes' : 'no'}</td>
            <td>
              {[typeof inner.description === 'string' ? inner.description : '', constraints(inner)]
                .filter(Boolean)
                .join(' · ')}
            </td>
          </tr>
        );
      })}
    </PropsTable>
  );
}

/**
 * A table of fields or parameters, one row each, under these column headings; on a phone each row is a
 * card (docs.css places the cells by their column, which `kind` says).
 */
export function PropsTable({
  kind,
  columns,
  children,
}: {
  kind: 'fields' | 'parameters';
  columns: string[];
  children: ReactNode;
}) {
  return (
    <table className={`docs-props docs-${kind}`}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
