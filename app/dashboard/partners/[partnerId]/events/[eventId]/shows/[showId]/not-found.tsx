import { CatalogNotFound } from '../../../../../_shared/not-found-state';

export default function ShowNotFound() {
  return <CatalogNotFound what="show" />;
}
