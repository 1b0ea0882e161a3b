import type { ReactNode } from 'react';
import { type IndexGroup, operationHref } from './operation-search';
import './docs.css';

/** The overview's sections, in its order: every page's menu links them. */
export const GUIDE_SECTIONS = [
  ['authentication', 'Authentication'],
  ['test-mode', 'Test mode'],
  ['integration-order', 'Integration order'],
  ['quick-start', 'Quick start: a typed client'],
  ['errors', 'Errors'],
  ['idempotency', 'Retrying safely'],
  ['operations', 'All operations'],
  ['webhooks', 'Webhooks'],
  ['partner-interfaces', 'Interfaces you expose'],
  ['versioning', 'Versioning and changelog'],
] as const;

/**
 * A page of the reference: its content first, then the menu (the guide's sections and every operation
 * under its tag). On a wide screen the menu is a sticky column on the left; on a phone it follows the
 * content, so a page opens on what was asked for rather than on a list of every operation.
 */
export function DocsShell({
  groups,
  current,
  children,
}: {
  groups: IndexGroup[];
  /** The operation this page shows, marked in the menu. */
  current?: string;
  children: ReactNode;
}) {
  return (
    <div className="docs">
      <main className="docs-main">{children}</main>
      <nav className="docs-nav" id="docs-menu" aria-label="API reference">
        <p className="docs-brand">
          <a href="/docs">Encore API</a>
        </p>
        <a href="/v1/openapi.json">openapi.json</a>
        <p className="docs-tag">Guide</p>
        <ul>
          {GUIDE_SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a href={`/docs#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
        {groups.map((g) => (
          <div key={g.slug}>
            <p className="docs-tag">
              <a href={`/docs#tag-${g.slug}`}>{g.tag}</a>
            </p>
            <ul>
              {g.ops.map((o) => (
                <li key={o.id}>
                  <a href={operationHref(o.id)} aria-current={o.id === current ? 'page' : undefined}>
                    <span className={`docs-method m-${o.method.toLowerCase()}`}>{o.method}</span> {o.path}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
    </div>
  );
}
