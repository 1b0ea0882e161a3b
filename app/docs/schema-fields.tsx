'use client';

import { SchemaView } from './schema-view';

/**
 * A request or answer's fields, drawn in the browser's bundle from the schema itself. Drawn on the server,
 * every row of the nested tables would be sent twice (the HTML, and again in the page's React payload at
 * about twice the HTML's size: 190 KB for an operation with large bodies such as createEvent); as props the
 * payload carries only the schemas, a few KB.
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
