import { PageSkeleton } from '../../../_catalog/page-skeleton';

export default function BatchLoading() {
  return <PageSkeleton label="Loading the batch" />;
}
