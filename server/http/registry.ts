import { accessLayerRoutes } from '@/server/modules/access-layer';
import { marketDataRoutes } from '@/server/modules/market-data';
import { applyRulesRoute, cancelEventRoute, createEventRoute, updateEventRoute } from '@/server/modules/catalog';
import { channelsRoutes } from '@/server/modules/channels';
import { marketplaceRoutes } from '@/server/modules/marketplace';
import { oneTimeTokenRoute } from '@/server/modules/fans';
import { meRoute } from '@/server/modules/partners';
import { ticketsRoutes } from '@/server/modules/tickets';
import type { RouteContract } from '@/server/lib/contract';
import { openApiRoute } from './openapi-route';

/**
 * Every partner-API operation. The OpenAPI document is generated from this list, and a test checks it
 * against the route files under app/v1 in both directions.
 */
export const allRoutes: RouteContract[] = [
  meRoute,
  openApiRoute,
  createEventRoute,
  updateEventRoute,
  cancelEventRoute,
  applyRulesRoute,
  ...ticketsRoutes,
  ...marketplaceRoutes,
  oneTimeTokenRoute,
  ...accessLayerRoutes,
  ...marketDataRoutes,
  ...channelsRoutes,
];
