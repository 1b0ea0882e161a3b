import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { getBatchRoute } from '@/server/modules/tickets';
import { getBatch } from '@/server/modules/tickets';

export const GET = handle(getBatchRoute, ({ partner, params }) => getBatch(partner.partnerId, params.batchId, getDb()));
