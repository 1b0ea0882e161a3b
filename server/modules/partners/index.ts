/**
 * Partners: the partner itself, its API keys (secret `sk_…` keys, and the widget's publishable `pk_…` key
 * with its allowed origins), its integration settings (verification, feed, auth
 * header, feed schedule), its channels (external platforms with their own `sk_ch_` keys) and the
 * partner-side client that calls its servers. Owns the tables of
 * db/schema/partners.ts and db/schema/integrations.ts. The lowest module: it imports no other. Publishes
 * events.ts (`onChannelDisabled`).
 */
export {
  channelNames,
  createChannel,
  getChannel,
  listChannels,
  rotateChannelSecret,
  setChannelDisabled,
  updateChannel,
} from './channels';
export {
  amountField,
  callOutcome,
  type CallOutcome,
  currencyCodeField,
  fetchFeedAnswer,
  invalidAnswer,
  PartnerCallError,
  partnerIdField,
  testVerification,
  verificationAnswer,
  type VerifiedTicket,
  verifyTickets,
} from './client';
export { onChannelDisabled } from './events';
export { claimDueFeeds, getIntegration, recordFeedRun, releaseFeedClaim, updateIntegration } from './integration';
export { returnOriginsOf } from './return-origins';
export {
  createApiKeyInput,
  createChannelInput,
  createPartnerInput,
  listPartnersInput,
  meRoute,
  partnerName,
  renamePartnerInput,
  revokeApiKeyInput,
  rotatePublishableKeyInput,
  setChannelDisabledInput,
  setPartnerDisabledInput,
  setPartnerLogoInput,
  setPartnerReturnOriginsInput,
  setPartnerSupportInput,
  setPartnerWidgetOriginsInput,
  setPrimarySalesFeeInput,
  testVerificationInput,
  updateChannelInput,
  updateIntegrationInput,
} from './schemas';
export { createApiKey, createPartnerCredentials, createPartnerWithKeys, listApiKeys, revokeApiKey } from './api-keys';
export { authenticateApiKey, type AuthenticatedKey, forgetCheckedKeys } from './key-authentication';
export { kindOfKey, modeOfKey } from './key-prefixes';
export { publishableKeyOf, rotatePublishableKey } from './publishable-keys';
export {
  createPartner,
  getPartner,
  listPartners,
  renamePartner,
  setPartnerDisabled,
  setPartnerLogo,
  setPartnerReturnOrigins,
  setPartnerSupport,
  setPartnerWidgetOrigins,
  setPrimarySalesFee,
} from './partners';
export { lockTestPartnerForWipe, modeOfPartner, testPartnerOf } from './test-twins';
