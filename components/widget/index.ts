import { EncoreResale } from './resale';
import { EncoreSell } from './sell';

/*
 * The drop-in widget's entry point, bundled by server/widget/bundle.ts into `/widget/v1.js`:
 *
 *   <script src="https://<encore>/widget/v1.js" async></script>
 *   <encore-resale publishable-key="pk_…" event="<externalReferenceId>" show="<showId>" lang="es"></encore-resale>
 *   <encore-sell publishable-key="pk_…" token="ott_…" lang="es"></encore-sell>   (token: GET /v1/auth/oneTimeToken)
 *
 * Loaded twice on one page (two snippets pasted), the second copy defines nothing.
 */
if (!customElements.get('encore-resale')) customElements.define('encore-resale', EncoreResale);
if (!customElements.get('encore-sell')) customElements.define('encore-sell', EncoreSell);
