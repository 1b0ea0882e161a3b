import { PageSkeleton } from '@/components/ui/table';

export default function EventLoading() {
  return <PageSkeleton label="Loading the event" />;
}
