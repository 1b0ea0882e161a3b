/**
 * How fresh the buy page's offers are: an offer that was held, sold, repriced or taken
 * off sale elsewhere is shown as buyable for at most BUY_PAGE_OFFERS_MS on a page this process makes (plus
 * the read's own time). Three layers each keep a third of it: the offers read (fan-pages offers-cache.ts),
 * the page answers made from them, and the pages as sent (server/http/shared-page-render.ts). A shared cache in
 * front (the reference edge, a CDN) adds its own window, stated with the page's Cache-Control
 * (server/http/shared-page-address.ts; docs/decisions.md "The rush through a shared cache").
 * Kept apart from the modules so Encore's HTTP server (server/start.ts) reads them without loading the app.
 */
export const BUY_PAGE_OFFERS_MS = 1000;

/** Each layer's third of the window. */
export const BUY_PAGE_LAYER_MS = BUY_PAGE_OFFERS_MS / 3;

/** The pages as sent to anonymous fans, by address (server/http/shared-page-render.ts); forgotten by this name. */
export const BUY_PAGE_HTML = 'buy-page-html';

/**
 * The buy pages' seat map documents, by address; forgotten by this name. Made by fan-pages seat-map.ts
 * (`seatMapDocument`), answered by Encore's HTTP server before Next.js (server/http/listener.ts), and by
 * app/(market)/market/[eventId]/map/route.ts under `next dev` or when Next.js is asked directly.
 */
export const SEAT_MAP_DOCUMENTS = 'seat-map-documents';

/**
 * The same promise for a page served through a shared cache (the reference edge, EDGE_CACHE=true): the
 * edge keeps a page fresh until the end of the second it was made in (≤ 1 s, edge/nginx.conf), then answers
 * it stale while one refresh runs (one render); the page was made from an answer at most BUY_PAGE_LAYER_MS
 * old, itself made from offers at most BUY_PAGE_LAYER_MS old (behind an edge the origin keeps no pages of its
 * own). So ≤ 1⅔ s and one render: stated as 2 s, which holds while the instances render every hot address
 * about once a second (docs/operations.md "Running at scale" sizes them). Whatever the traffic, the edge
 * never serves a page stale past one more second (the page's stale-while-revalidate): an address asked for
 * after a quiet spell is at most 2 s + one render old. The onsale-peak bench measures the
 * longest it took under the rush, and e2e/edge.spec.ts checks it across two instances.
 */
export const EDGE_FRESHNESS_MS = 2000;

/**
 * The meta element the buy page stamps the version of its model into (fan-pages buy-page-model.ts), read back
 * by Encore's HTTP server as the shared page's ETag (server/http/shared-page-render.ts).
 */
export const PAGE_VERSION_META = 'encore-page-version';
