import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { applyRulesRoute } from '@/server/modules/catalog';
import { applyRules } from '@/server/modules/catalog';

export const POST = handle(applyRulesRoute, ({ partner, body }) => applyRules(partner.partnerId, body, getDb()));
