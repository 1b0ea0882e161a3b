'use client';

import { SchemaView } from './schema-view';

/**
 * A request or answer's fields, drawn in the browser's bundle from the schema itself. Drawn on the server,
 * every row of the nested tables was sent twice (the HTML, and again in the page's React payload at about
 * twice the HTML's size); as props the payload carries only the schemas, a few KB. Issue 47: an operation
 * with large bodies (createEvent) came to 190 KB, most of it that payload.
 */
export function SchemaFields({
  schema,
  components,
}: {
  schema: Record<string, unknown>;
  /** The named schemas it reaches (`usedComponents`), not the document's every one. */
  components: Record<string, Record<string, unknown>>;
}) {
  return <SchemaView schema={schema} components={components} />;
}
