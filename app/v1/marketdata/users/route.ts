import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { saveLead, saveUserLeadRoute } from '@/server/modules/market-data';

export const POST = handle(saveUserLeadRoute, ({ partner, body }) => saveLead(partner.partnerId, body, getDb()));
