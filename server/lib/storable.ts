/**
 * What PostgreSQL cannot store, found before anything is written: a NUL character (text and jsonb
 * refuse U+0000), an unpaired UTF-16 surrogate (not valid UTF-8; jsonb refuses `\ud800`), and JSON
 * nested deeper than Encore keeps (a deep enough document overflows the stack of whoever walks it next:
 * JSON.stringify, PostgreSQL's jsonb parser).
 */

/** Deepest nesting of objects and arrays a request may send (the spec's documents use about 6). */
export const MAX_JSON_DEPTH = 32;

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this string cannot be stored, or null when it can. */
function unstorableText(s: string): string | null {
  const m = UNSTORABLE.exec(s);
  if (!m) return null;
  return m[0] === '\u0000'
    ? 'contains a NUL character (\\u0000), which cannot be stored'
    : 'contains an unpaired UTF-16 surrogate, which is not valid Unicode';
}

export interface UnstorableValue {
  path: readonly (string | number)[];
  message: string;
}

interface Node {
  v: unknown;
  key: string | number | null;
  parent: Node | null;
  depth: number;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let n: Node | null = node; n && n.key !== null; n = n.parent) path.push(n.key);
  return path.reverse();
}

/**
 * Every place in a JSON value (strings, object keys, nesting) that cannot be stored, up to `limit`.
 * Iterative, so a hostile depth cannot overflow the stack here; paths are only built
 * for what is found, so the walk over a clean 5,000-ticket request stays cheap.
 */
export function findUnstorable(value: unknown, limit = 20): UnstorableValue[] {
  const found: UnstorableValue[] = [];
  const stack: Node[] = [{ v: value, key: null, parent: null, depth: 0 }];
  while (stack.length && found.length < limit) {
    const node = stack.pop()!;
    const { v, key } = node;
    if (typeof key === 'string') {
      const why = unstorableText(key);
      if (why) found.push({ path: pathOf(node), message: `is a field name that ${why}` });
    }
    if (typeof v === 'string') {
      const why = unstorableText(v);
      if (why) found.push({ path: pathOf(node), message: why });
    } else if (v !== null && typeof v === 'object') {
      if (node.depth >= MAX_JSON_DEPTH) {
        found.push({ path: pathOf(node), message: `is nested more than ${MAX_JSON_DEPTH} levels deep` });
        continue;
      }
      const depth = node.depth + 1;
      // Pushed in reverse, so problems come out in document order.
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, parent: node, depth });
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--)
          stack.push({ v: (v as Record<string, unknown>)[keys[i]], key: keys[i], parent: node, depth });
      }
    }
  }
  return found;
}

/**
 * A string as it can be stored and shown: NUL and unpaired surrogates replaced by U+FFFD. For values
 * that must be recorded anyway (e.g. the ticketId of a ticket that failed because of them).
 */
export function storableText(s: string): string {
  return s.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
}
