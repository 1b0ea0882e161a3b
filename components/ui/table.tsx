import { Suspense } from 'react';

/** A column header: its text, or the text with how the column reads. */
export type Column =
  | string
  | {
      label: string;
      /** Right-aligned figures. */
      num?: boolean;
      /** A tooltip that says more than the header's few words. */
      title?: string;
      /** Read by screen readers only (a column of row actions). */
      hidden?: boolean;
    };

function HeaderCell({ column }: { column: Column }) {
  if (typeof column === 'string') return <th scope="col">{column}</th>;
  return (
    <th scope="col" className={column.num ? 'num' : undefined} title={column.title}>
      {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
    </th>
  );
}

/** The header of a column of row actions ("Revoke", "Remove"), named for screen readers only. */
export const ACTIONS_COLUMN: Column = { label: 'Actions', hidden: true };

/**
 * The box a table scrolls sideways in on a narrow screen: a named region a keyboard can reach (Tab, then the
 * arrow keys scroll it), so no column is out of reach without a pointer (WCAG 2.1.1; axe's
 * scrollable-region-focusable).
 */
export function TableRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A data table that scrolls sideways on narrow screens instead of squeezing its columns. With
 * `columns`, it writes the header row and `children` are the body's rows.
 */
export function Table({
  children,
  label,
  fixed = false,
  columns,
  widths,
  bodyTestId,
}: {
  children: React.ReactNode;
  label: string;
  /** Column widths from <col> elements, so tables of the same kind line up on one page. */
  fixed?: boolean;
  columns?: readonly Column[];
  /** With `fixed`: each column's width (none: it takes what is left). */
  widths?: readonly (string | undefined)[];
  /** A test id for the <tbody>, whose rows a test reads. */
  bodyTestId?: string;
}) {
  return (
    <TableRegion label={label}>
      <table className={fixed ? 'table table-fixed' : 'table'} aria-label={label}>
        {widths && (
          <colgroup>
            {widths.map((width, i) => (
              <col key={i} style={width ? { width } : undefined} />
            ))}
          </colgroup>
        )}
        {columns ? (
          <>
            <thead>
              <tr>
                {columns.map((column) => (
                  <HeaderCell key={typeof column === 'string' ? column : column.label} column={column} />
                ))}
              </tr>
            </thead>
            <tbody data-testid={bodyTestId}>{children}</tbody>
          </>
        ) : (
          children
        )}
      </table>
    </TableRegion>
  );
}

/** Placeholder rows while a table's data loads. */
function TableSkeleton({
  rows = 5,
  columns = 4,
  label = 'Loading',
}: {
  rows?: number;
  columns?: number;
  label?: string;
}) {
  return (
    <div className="table-wrap" role="status" aria-live="polite">
      <span className="sr-only">{label}…</span>
      <table className="table" aria-hidden="true">
        <tbody>
          {Array.from({ length: rows }, (_, r) => (
            <tr key={r}>
              {Array.from({ length: columns }, (_, c) => (
                <td key={c}>
                  <span className="skeleton" />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Streams in what suspends on its data, with a table skeleton of that shape until it arrives. Give it
 * a `key` per search or page, so a new one shows the skeleton again instead of the previous rows.
 */
export function TableSuspense({
  label,
  rows,
  columns,
  children,
}: {
  label: string;
  rows?: number;
  columns?: number;
  children: React.ReactNode;
}) {
  return <Suspense fallback={<TableSkeleton rows={rows} columns={columns} label={label} />}>{children}</Suspense>;
}

/** While a detail page loads: its heading's place and a table's. */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div className="page-loading">
      <span className="skeleton skeleton-title" aria-hidden="true" />
      <TableSkeleton rows={6} columns={5} label={label} />
    </div>
  );
}
