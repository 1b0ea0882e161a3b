import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLead, saveLeadRoute } from '@/server/modules/market-data';

export const POST = handle(saveLeadRoute, ({ partner, body }) => saveLead(partner.partnerId, body, getDb()));
