'use client';

import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import { useTypedValue } from '@/components/ui/use-typed-value';
import { type IndexGroup, MAX_OPERATION_SEARCH, operationHref, searchOperations } from './operation-search';

/**
 * The overview's index of operations under their tags, each a link to its page, with a search that
 * filters it as you type (operationId, method, path, summary, tag). Without JavaScript the whole index is
 * drawn and the search is a GET form (`/docs?q=`) the server filters. Keys: ↓ from the box to the results,
 * ↑/↓ between them, Enter in the box opens the first, Escape empties it.
 *
 * It also keeps the reference's old addresses: an operation used to be a section of this page
 * (`/docs#createEvent`); such an address opens the operation's page (without JavaScript, the anchor is
 * the operation's entry here, one link away).
 */
export function OperationIndex({ groups, query }: { groups: IndexGroup[]; query: string }) {
  // Uncontrolled: a query typed before the page hydrated filters the list once it does.
  const typed = useTypedValue(query);
  const q = typed.value;
  const shown = useMemo(() => searchOperations(groups, q), [groups, q]);
  const total = groups.reduce((n, g) => n + g.ops.length, 0);
  const count = shown.reduce((n, g) => n + g.ops.length, 0);
  const box = useRef<HTMLInputElement>(null);
  const seed = typed.field.ref;
  const boxRef = useCallback(
    (el: HTMLInputElement | null) => {
      box.current = el;
      seed(el);
    },
    [seed],
  );
  const list = useRef<HTMLDivElement>(null);
  const results = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];

  useEffect(() => {
    const ids = new Set(groups.flatMap((g) => g.ops.map((o) => o.id)));
    const follow = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (ids.has(id)) window.location.replace(operationHref(id));
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [groups]);

  function onSubmit(event: FormEvent) {
    // The list is already filtered: Enter opens the first result.
    event.preventDefault();
    if (q.trim()) results()[0]?.click();
  }

  function onBoxKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      results()[0]?.focus();
    } else if (event.key === 'Escape' && q) {
      event.preventDefault();
      typed.set('');
    }
  }

  function onListKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const all = results();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0) return;
    event.preventDefault();
    const to = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (to < 0) box.current?.focus();
    else all[Math.min(to, all.length - 1)].focus();
  }

  return (
    <div className="docs-index">
      <form role="search" action="/docs#operations" onSubmit={onSubmit} className="docs-search">
        <label htmlFor="operation-search">Search operations</label>
        <input
          ref={boxRef}
          id="operation-search"
          name="q"
          type="search"
          defaultValue={typed.field.defaultValue}
          onChange={typed.field.onChange}
          onKeyDown={onBoxKey}
          maxLength={MAX_OPERATION_SEARCH}
          placeholder="listing, POST /v1/events, createEvent…"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="go"
          aria-describedby="operation-search-count"
          aria-controls="operation-results"
        />
        <p id="operation-search-count" role="status" className="docs-meta">
          {q.trim() ? `${count} of ${total} operations match.` : `${total} operations.`}
        </p>
      </form>
      <div id="operation-results" ref={list} onKeyDown={onListKey}>
        {shown.map((g) => (
          <section key={g.slug} aria-labelledby={`tag-${g.slug}`}>
            <h3 id={`tag-${g.slug}`}>{g.tag}</h3>
            <ul>
              {g.ops.map((o) => (
                <li key={o.id} id={o.id}>
                  <a href={operationHref(o.id)}>
                    <span className={`docs-method m-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code>
                    <span className="docs-index-summary">{o.summary}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
