import type { ApiKeyKind, PartnerMode } from './schemas';

/** A key's prefix by the mode of its partner and its kind (a test twin's keys say so: `sk_test_…`). */
export const KEY_PREFIX: Record<PartnerMode, Record<ApiKeyKind, string>> = {
  live: { partner: 'sk_live_', channels: 'sk_ch_' },
  test: { partner: 'sk_test_', channels: 'sk_test_ch_' },
};

/** The kind of key its prefix says (`sk_ch_` or `sk_test_ch_`: channels; anything else: partner). */
export function kindOfKey(rawKey: string): ApiKeyKind {
  // `sk_test_ch_` starts with `sk_test_`: the channels prefixes are tested first.
  return rawKey.startsWith(KEY_PREFIX.live.channels) || rawKey.startsWith(KEY_PREFIX.test.channels)
    ? 'channels'
    : 'partner';
}

/** The mode its prefix says: `sk_test_…` (and `sk_test_ch_…`) are test keys, every other key live. */
export function modeOfKey(rawKey: string): PartnerMode {
  return rawKey.startsWith(KEY_PREFIX.test.partner) ? 'test' : 'live';
}
