import type { DbOrTx } from '@/db';
import type { WipeCounts } from '@/server/lib/wipe';
import { wipeAccessLayerTestData } from '@/server/modules/access-layer';
import { wipeCatalogTestData } from '@/server/modules/catalog';
import { wipeChannelsTestData } from '@/server/modules/channels';
import { wipeFansTestData } from '@/server/modules/fans';
import { wipeMailTestData } from '@/server/modules/mail';
import { wipeMarketDataTestData } from '@/server/modules/market-data';
import { wipeMarketplaceTestData } from '@/server/modules/marketplace';
import { lockTestPartnerForWipe } from '@/server/modules/partners';
import { wipePaymentsTestData } from '@/server/modules/payments';
import { wipeProtectionTestData } from '@/server/modules/protection';
import { wipeTicketsTestData } from '@/server/modules/tickets';
import { wipeWebhooksTestData } from '@/server/modules/webhooks';

/**
 * The owners' wipes in an order no foreign key objects to: what points at a row goes before it (webhook
 * messages; payouts, intentions and listings before channel listings and tickets; payments; leads and
 * inventory, banners and protection before the catalogue; tickets before their shows and events).
 */
const WIPES = [
  wipeWebhooksTestData,
  wipeMarketplaceTestData,
  wipeChannelsTestData,
  wipePaymentsTestData,
  wipeMarketDataTestData,
  wipeAccessLayerTestData,
  wipeProtectionTestData,
  wipeTicketsTestData,
  wipeCatalogTestData,
  wipeFansTestData,
  wipeMailTestData,
];

/**
 * Deletes every row of a test partner's data space inside the caller's transaction: events
 * and their catalogue, tickets, listings, purchases, payouts, payments, leads, inventory, channel
 * listings and sales, webhook messages, fans' sessions and mails. The partner, its keys, channels and
 * settings (integration, webhook endpoint, market terms, partner-wide banners and protection) stay, and
 * so does the audit log. The first statement locks the partner where it is a test partner: a live
 * partner (or an unknown id) is a 400 before anything is deleted.
 */
export async function wipeTestData(partnerId: string, tx: DbOrTx): Promise<WipeCounts> {
  const wipe = await lockTestPartnerForWipe(partnerId, tx);
  const counts: WipeCounts = {};
  for (const step of WIPES) Object.assign(counts, await step(wipe, tx));
  return counts;
}
