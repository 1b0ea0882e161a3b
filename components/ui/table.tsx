/** A data table that scrolls sideways on narrow screens instead of squeezing its columns. */
export function Table({
  children,
  label,
  fixed = false,
}: {
  children: React.ReactNode;
  label: string;
  /** Column widths from <col> elements, so tables of the same kind line up on one page. */
  fixed?: boolean;
}) {
  return (
    <div className="table-wrap">
      <table className={fixed ? 'table table-fixed' : 'table'} aria-label={label}>
        {children}
      </table>
    </div>
  );
}

/** Placeholder rows while a table's data loads. */
export function TableSkeleton({
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
