import { PageSkeleton } from '@/components/ui/table';

export default function ShowLoading() {
  return <PageSkeleton label="Loading tickets" />;
}
