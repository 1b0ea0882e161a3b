import type { RouteContract } from '@/server/lib/contract';

interface Template {
  pattern: RegExp;
  methods: Set<string>;
  /** Per segment, 1 for a literal and 0 for a parameter: Next.js routes a path to the literal one first. */
  shape: string;
}

/** `/v1/tickets/{ticketId}` → /^\/v1\/tickets\/[^/]+$/ */
export function compileTemplates(routes: RouteContract[]): Template[] {
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    if (!byPath.has(r.path)) byPath.set(r.path, new Set());
    byPath.get(r.path)!.add(r.method);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`),
    methods,
    shape: path
      .split('/')
      .slice(1)
      .map((segment) => (segment.startsWith('{') ? '0' : '1'))
      .join(''),
  }));
}

/**
 * For a known path called with a method it does not have, the methods it does have; otherwise null.
 * Literal segments win over parameters the way Next.js routes them: `/v1/channels/listings/bulk` is that
 * route's alone (POST), never `/v1/channels/listings/{listingId}`'s, whatever the method.
 */
export function allowedMethodsFor(templates: Template[], method: string, pathname: string): string[] | null {
  const candidates = templates.filter((t) => t.pattern.test(pathname));
  if (candidates.length === 0) return null;
  const best = candidates.reduce((top, t) => (t.shape > top ? t.shape : top), '');
  const matching = candidates.filter((t) => t.shape === best);
  if (matching.some((t) => t.methods.has(method))) return null;
  return [...new Set(matching.flatMap((t) => [...t.methods]))].sort();
}
