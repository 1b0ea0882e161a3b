import { TableSkeleton } from '@/components/ui/table';

export default function DashboardLoading() {
  return (
    <div className="page-loading">
      <span className="skeleton skeleton-title" />
      <TableSkeleton rows={4} columns={4} />
    </div>
  );
}
