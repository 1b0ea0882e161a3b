import { CatalogNotFound } from '../../../_shared/not-found-state';

export default function EventNotFound() {
  return <CatalogNotFound what="event" />;
}
