import { TableSkeleton } from '@/components/ui/table';

export default function PartnerLoading() {
  return (
    <div className="page-loading">
      <span className="skeleton skeleton-title" />
      <TableSkeleton rows={3} columns={5} label="Loading partner" />
    </div>
  );
}
