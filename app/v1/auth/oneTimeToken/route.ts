import { getDb } from '@/db';
import { handle } from '@/server/http/route';
import { issueOneTimeToken, oneTimeTokenRoute } from '@/server/modules/fans';

export const GET = handle(oneTimeTokenRoute, ({ partner, query }) =>
  issueOneTimeToken(partner.partnerId, query.user, query.method, getDb()),
);
