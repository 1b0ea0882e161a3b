/**
 * Fans: one-time sign-in tokens (issued to partners, appended to Encore URLs) and the fan sessions they
 * open, each bound to one partner, and sign-in links by e-mail (sent through the mail module). Owns the
 * tables of db/schema/fans.ts (one_time_tokens, fan_sessions); depends on partners and mail.
 */
export * from './contracts';
export * from './examples';
export * from './jobs';
export * from './schemas';
export * from './fan-sessions';
export * from './one-time-tokens';
export * from './urls';
export * from './sign-in-link';
export * from './wipe';
