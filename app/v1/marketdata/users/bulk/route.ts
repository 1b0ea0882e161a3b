import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLeads, saveUserLeadsRoute } from '@/server/modules/market-data';

export const POST = handle(saveUserLeadsRoute, ({ partner, body }) => saveLeads(partner.partnerId, body, getDb()));
