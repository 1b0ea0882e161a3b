import { TableSkeleton } from '@/components/ui/table';

export default function PartnersLoading() {
  return (
    <div className="page-loading">
      <span className="skeleton skeleton-title" />
      <TableSkeleton rows={5} columns={4} label="Loading partners" />
    </div>
  );
}
