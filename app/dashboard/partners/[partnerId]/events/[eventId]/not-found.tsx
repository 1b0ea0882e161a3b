import { CatalogNotFound } from '../../../_catalog/not-found-state';

export default function EventNotFound() {
  return <CatalogNotFound what="event" />;
}
