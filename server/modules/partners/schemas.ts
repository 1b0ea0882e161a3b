import { z } from 'zod';
import { defineRoute } from '@/server/http/contract';

export const partnerName = z.string().trim().min(1, 'Name is required').max(120, 'Name is at most 120 characters');

export const createPartnerInput = z.object({ name: partnerName });

export const listPartnersInput = z.object({
  search: z.string().trim().max(120).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

export const apiKeyKind = z.enum(['partner', 'channels']);
export type ApiKeyKind = z.infer<typeof apiKeyKind>;

export const createApiKeyInput = z.object({
  partnerId: z.string().min(1),
  kind: apiKeyKind.default('partner'),
  label: z.string().trim().max(80).default(''),
});

export const revokeApiKeyInput = z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) });

/** What `GET /v1/me` answers: enough for a partner to check which key it is using. */
export const meResponse = z
  .object({
    partnerId: z.string().meta({ example: 'ptr_7Qm2kX9aB4cD5eF6gH7i' }),
    name: z.string(),
    keyPrefix: z
      .string()
      .meta({ description: 'Visible start of the key used for this call', example: 'sk_live_Ab3dEf' }),
    keyKind: apiKeyKind,
  })
  .meta({ id: 'Me' });

export type CreatePartnerInput = z.infer<typeof createPartnerInput>;
export type ListPartnersInput = z.input<typeof listPartnersInput>;

export const meRoute = defineRoute({
  method: 'GET',
  path: '/v1/me',
  operationId: 'getMe',
  tag: 'Authentication',
  summary: 'The calling partner',
  description: 'Answers which partner the presented API key belongs to. Use it to check a key.',
  auth: 'partner',
  response: meResponse,
});
