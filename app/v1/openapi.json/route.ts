import { buildOpenApiDocument } from '@/server/http/openapi';
import { openApiRoute } from '@/server/http/openapi-route';
import { allRoutes } from '@/server/http/registry';
import { handle } from '@/server/http/route';

export const GET = handle(openApiRoute, async () => buildOpenApiDocument(allRoutes));
