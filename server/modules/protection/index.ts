/**
 * Ticket protection: when a ticket's code unlocks and the moving code of the secure view
 * (unlock.ts); staff's switches per event and show, unlock overrides and the partner's reissue setting,
 * with `ticketShield.updated` in the outbox (settings.ts). Owns `protection_settings`. Publishes
 * events.ts (`onProtectionTurnedOff`).
 */
export { onProtectionTurnedOff } from './events';
export { eventProtectionRef, partnerProtectionInput, partnerRef, scopeProtectionInput } from './schemas';
export { eventProtection, partnerProtection, protectionOf, setPartnerProtection, setScopeProtection } from './settings';
export { DEFAULT_UNLOCK_HOURS, MOVING_CODE_SECONDS, movingCodeKey, unlockState } from './unlock';
export { wipeProtectionTestData } from './wipe';
