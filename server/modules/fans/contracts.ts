import { defineRoute } from '@/server/lib/contract';
import { oneTimeTokenExample } from './examples';
import { oneTimeTokenQuery, oneTimeTokenResponse } from './schemas';

export const oneTimeTokenRoute = defineRoute({
  method: 'GET',
  path: '/v1/auth/oneTimeToken',
  operationId: 'getOneTimeToken',
  tag: 'Auth',
  summary: 'A single-use token that signs a fan in on an Encore URL',
  description:
    'Answers a token (`data`) for the fan `user` (an e-mail address, matched in any case). Append it to any Encore ' +
    'fan URL as the query parameter `token` (`https://encore.example.com/market/evt_…?token=ott_…`): the first ' +
    "visit spends it and opens a fan session bound to your partner account only (it never opens another partner's " +
    'pages), then shows the same URL without the token. The token works once and expires after 15 minutes ' +
    '(ONE_TIME_TOKEN_TTL_SECONDS); a used or expired token lands the fan on a page asking them to come back ' +
    'through your site for a fresh link. Every call issues a new token; earlier ones stay valid until used or ' +
    'expired. Ask for it when the fan clicks, not in advance. `method` (values not given by the spec): only ' +
    '`email`, the default, meaning you vouch for the fan by their verified e-mail; any other value answers 400 ' +
    'naming `method`.',
  auth: 'partner',
  query: oneTimeTokenQuery,
  response: oneTimeTokenResponse,
  examples: oneTimeTokenExample,
});
