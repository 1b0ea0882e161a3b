/**
 * The smart access layer (spec "Smart access layer"): what the partner's own pages show about resale —
 * the sell access layer's statuses and calls to action per ticket or order. Reads the marketplace,
 * catalogue, payments and fans modules through their public faces; owns the staff-configured banners (db/schema/access-layer.ts).
 */
export { bannerInput, updateBannerInput } from './schemas';
export { sellAccessLayer } from './sell';
export { bulkAccessLayer, buyAccessLayer } from './buy';
export { seatMapPreview, seatMapPreviewInput } from './seat-map-preview';
export { createBanner, deleteBanner, listBanners, updateBanner } from './banners';
export {
  accessLayerRoutes,
  bulkAccessLayerRoute,
  buyAccessLayerRoute,
  resaleEntryRoute,
  sellAccessLayerRoute,
} from './contracts';
export { resaleEntry } from './resale-entry';
export { wipeAccessLayerTestData } from './wipe';
export { sharedBuyAccessLayer } from './widget-layer';
export { forgetWidgetLayersOfChangedListings } from './reactions/listings-changed';
