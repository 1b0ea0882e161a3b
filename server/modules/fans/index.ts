/**
 * Fans: one-time sign-in tokens (issued to partners, appended to Encore URLs) and the fan sessions they
 * open, each bound to one partner, and sign-in links by e-mail (sent through the mail module). Owns the
 * tables of db/schema/fans.ts (one_time_tokens, fan_sessions); depends on partners and mail.
 */
export { oneTimeTokenRoute } from './contracts';
export { sweepFanAuthJob } from './jobs';
export { fanEmail } from './schemas';
export {
  currentFanSession,
  endFanSession,
  endFanSessionsOf,
  type FanSession,
  fanSessionFrom,
  fanSessionMaxAge,
  lastFanLocale,
  startFanSession,
} from './fan-sessions';
export {
  fanOfOneTimeToken,
  issueOneTimeToken,
  issueOneTimeTokens,
  oneTimeTokenKey,
  redeemOneTimeToken,
  withOneTimeToken,
} from './one-time-tokens';
export {
  DEFAULT_FAN_PATH,
  EXPIRED_PATH,
  FAN_ADDRESS_HEADER,
  FAN_SESSION_COOKIE,
  getsFanLocale,
  LAST_PARTNER_COOKIE,
  ONE_TIME_TOKEN_PARAM,
  redeemRedirectFor,
  safeNextPath,
  TOO_MANY_PATH,
} from './urls';
export { REDEEM_FAILURES_PER_CLIENT, redeemFromClient, requestSignInLink } from './sign-in-link';
export { wipeFansTestData } from './wipe';
