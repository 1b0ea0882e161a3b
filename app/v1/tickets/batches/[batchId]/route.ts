import { handle } from '@/server/http/route';
import { getBatchRoute } from '@/server/modules/tickets/contracts';
import { getBatch } from '@/server/modules/tickets/service';

export const GET = handle(getBatchRoute, ({ partner, params }) => getBatch(partner.partnerId, params.batchId));
