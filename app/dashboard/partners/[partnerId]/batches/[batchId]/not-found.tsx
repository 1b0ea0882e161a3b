import { CatalogNotFound } from '../../../_catalog/not-found-state';

export default function BatchNotFound() {
  return <CatalogNotFound what="batch" />;
}
