import { PageSkeleton } from '../../../../../_catalog/page-skeleton';

export default function ShowLoading() {
  return <PageSkeleton label="Loading tickets" />;
}
