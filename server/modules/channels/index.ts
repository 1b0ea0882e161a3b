/** Channels: the Channels API (keys starting `sk_ch_`). Owns no table yet. */
export * from './schemas';
