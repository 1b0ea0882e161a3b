import { PageSkeleton } from '../../../_catalog/page-skeleton';

export default function EventLoading() {
  return <PageSkeleton label="Loading the event" />;
}
