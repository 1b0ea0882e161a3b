import { PageSkeleton } from '@/components/ui/table';

export default function BatchLoading() {
  return <PageSkeleton label="Loading the batch" />;
}
