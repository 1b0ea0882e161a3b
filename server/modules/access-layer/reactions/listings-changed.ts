import { forgetWidgetLayers } from '../widget-layer';

/**
 * The marketplace's listings changed (a hold, a sale, a listing, a reprice, an unlisting, the fees) and the
 * change is committed: the widget's answers shared in this process are forgotten (widget-layer.ts).
 */
export async function forgetWidgetLayersOfChangedListings(): Promise<void> {
  forgetWidgetLayers();
}
