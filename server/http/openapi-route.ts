import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';

export const openApiRoute = defineRoute({
  method: 'GET',
  path: '/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  tag: 'Meta',
  summary: 'This OpenAPI 3.1 document',
  description: 'No authentication. The same document is rendered at /docs.',
  auth: 'none',
  raw: true,
  response: z.record(z.string(), z.unknown()),
  examples: {
    response: { openapi: '3.1.0', info: { title: 'Encore partner API', version: 'v.1.0' }, paths: {} },
  },
});
