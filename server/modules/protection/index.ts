/**
 * Ticket protection (issue 13): when a ticket's code unlocks and the moving code of the secure view
 * (unlock.ts); staff's switches per event and show, unlock overrides and the partner's reissue setting,
 * with `ticketShield.updated` in the outbox (settings.ts). Owns `protection_settings`. Publishes
 * events.ts (`onProtectionTurnedOff`).
 */
export * from './events';
export * from './schemas';
export * from './settings';
export * from './unlock';
export * from './wipe';
