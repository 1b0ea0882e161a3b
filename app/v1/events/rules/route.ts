import { handle } from '@/server/http/route';
import { applyRulesRoute } from '@/server/modules/catalog/contracts';
import { applyRules } from '@/server/modules/catalog/rules';

export const POST = handle(applyRulesRoute, ({ partner, body }) => applyRules(partner.partnerId, body));
