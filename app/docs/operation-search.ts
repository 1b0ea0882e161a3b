/** The operations index as the overview's search reads it, on the server (`?q=`) and in the browser alike. */
interface IndexEntry {
  id: string;
  method: string;
  path: string;
  summary: string;
}

export interface IndexGroup {
  tag: string;
  slug: string;
  ops: IndexEntry[];
}

/** The longest search kept from the address (`?q=`); longer input is cut. */
export const MAX_OPERATION_SEARCH = 100;

/**
 * The groups with only the operations matching every word of `query` (case aside) in their
 * operationId, method, path, summary or tag; groups left empty are dropped. An empty query keeps all.
 */
export function searchOperations(groups: IndexGroup[], query: string): IndexGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return groups;
  return groups
    .map((g) => ({
      ...g,
      ops: g.ops.filter((o) => {
        const text = `${o.id} ${o.method} ${o.path} ${o.summary} ${g.tag}`.toLowerCase();
        return words.every((w) => text.includes(w));
      }),
    }))
    .filter((g) => g.ops.length);
}

/** An operation's own page. */
export const operationHref = (operationId: string) => `/docs/operations/${operationId}`;
