import { CatalogNotFound } from '../../../../../_catalog/not-found-state';

export default function ShowNotFound() {
  return <CatalogNotFound what="show" />;
}
