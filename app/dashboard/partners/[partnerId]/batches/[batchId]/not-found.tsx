import { CatalogNotFound } from '../../../_shared/not-found-state';

export default function BatchNotFound() {
  return <CatalogNotFound what="batch" />;
}
