import type { RouteContract } from '@/server/lib/contract';

interface Template {
  pattern: RegExp;
  methods: Set<string>;
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
  }));
}

/**
 * For a known path called with a method it does not have, the methods it does have; otherwise null.
 * Static paths win over templated ones the way Next.js routes them (`/v1/tickets/batches` is not
 * `/v1/tickets/{ticketId}`), so a path matching any template that has the method is not refused.
 */
export function allowedMethodsFor(templates: Template[], method: string, pathname: string): string[] | null {
  const matching = templates.filter((t) => t.pattern.test(pathname));
  if (matching.length === 0) return null;
  if (matching.some((t) => t.methods.has(method))) return null;
  return [...new Set(matching.flatMap((t) => [...t.methods]))].sort();
}
