import type { ApiKeyKind, PartnerMode } from './schemas';

/**
 * A key's prefix by the mode of its partner and its kind (a test twin's keys say so: `sk_test_…`,
 * `pk_test_…`). `publishable` is the widget's key (`pk_…`): not a secret, it opens two public reads.
 */
export const KEY_PREFIX: Record<PartnerMode, Record<ApiKeyKind, string>> = {
  live: { partner: 'sk_live_', channels: 'sk_ch_', publishable: 'pk_live_' },
  test: { partner: 'sk_test_', channels: 'sk_test_ch_', publishable: 'pk_test_' },
};

/** How many characters after its kind prefix a key's visible prefix keeps (`sk_live_Ab3dEf`). */
export const KEY_VISIBLE_CHARS = 6;

/** The kind of key its prefix says (`pk_…`: publishable; `sk_ch_` or `sk_test_ch_`: channels; anything else: partner). */
export function kindOfKey(rawKey: string): ApiKeyKind {
  if (rawKey.startsWith('pk_')) return 'publishable';
  // `sk_test_ch_` starts with `sk_test_`: the channels prefixes are tested first.
  return rawKey.startsWith(KEY_PREFIX.live.channels) || rawKey.startsWith(KEY_PREFIX.test.channels)
    ? 'channels'
    : 'partner';
}

/** The mode its prefix says: `sk_test_…` (and `sk_test_ch_…`) and `pk_test_…` are test keys, every other key live. */
export function modeOfKey(rawKey: string): PartnerMode {
  return rawKey.startsWith(KEY_PREFIX.test.partner) || rawKey.startsWith(KEY_PREFIX.test.publishable) ? 'test' : 'live';
}
