import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCode, totpMatchingStep, totpStep, totpUri } from './totp';

// RFC 6238 appendix B: the SHA1 key is the ASCII "12345678901234567890"; its 8-digit codes end in our 6 digits.
const RFC_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_SHA1: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA1, 30 s, 6 digits)', () => {
  it('gives the RFC 6238 test vectors for SHA1 (their last 6 digits)', () => {
    expect(Secret.fromBase32(RFC_BASE32).utf8).toBe('12345678901234567890');
    for (const [seconds, code] of RFC_SHA1) expect(totpCode(RFC_BASE32, seconds * 1000)).toBe(code.slice(2));
  });

  it('takes the code of the step before and after (drift), not two steps away', () => {
    const at = 1_111_111_111_000;
    const now = totpStep(at);
    expect(totpMatchingStep(RFC_BASE32, totpCode(RFC_BASE32, at), at)).toBe(now);
    expect(totpMatchingStep(RFC_BASE32, totpCode(RFC_BASE32, at - 30_000), at)).toBe(now - 1);
    expect(totpMatchingStep(RFC_BASE32, totpCode(RFC_BASE32, at + 30_000), at)).toBe(now + 1);
    expect(totpMatchingStep(RFC_BASE32, totpCode(RFC_BASE32, at - 60_000), at)).toBeNull();
    expect(totpMatchingStep(RFC_BASE32, totpCode(RFC_BASE32, at + 60_000), at)).toBeNull();
  });

  it('refuses what is not a 6-digit code', () => {
    const at = 59_000;
    for (const bad of ['', '28708', '2870821', '94287082', 'abcdef', ' 287082', '287082\n']) {
      expect(totpMatchingStep(RFC_BASE32, bad, at), JSON.stringify(bad)).toBeNull();
    }
  });

  it('makes a new 160-bit secret each time, in base32', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('writes the otpauth:// URI the authenticator apps read', () => {
    const uri = new URL(totpUri(RFC_BASE32, 'ana+ops@encore.test'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Encore:ana+ops@encore.test');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: RFC_BASE32,
      issuer: 'Encore',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
