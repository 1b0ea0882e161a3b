import { TableSkeleton } from '@/components/ui/table';

/** While a detail page of the events browser loads: its heading's place and a table's. */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div className="page-loading">
      <span className="skeleton skeleton-title" aria-hidden="true" />
      <TableSkeleton rows={6} columns={5} label={label} />
    </div>
  );
}
