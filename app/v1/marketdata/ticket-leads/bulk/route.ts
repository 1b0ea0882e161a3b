import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLeads, saveLeadsRoute } from '@/server/modules/market-data';

export const POST = handle(saveLeadsRoute, ({ partner, body }) => saveLeads(partner.partnerId, body, getDb()));
