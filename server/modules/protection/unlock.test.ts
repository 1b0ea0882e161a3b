import { describe, expect, it } from 'vitest';
import { deliveryOf, hotp, movingCodeKey, totp, unlockAt } from './unlock';

const show = new Date('2027-05-01T23:00:00Z');

describe('unlock time', () => {
  it('follows the show’s ticketDelivery, else the event’s, else 3 hours before the show', () => {
    const before = { time: { when: 'BEFORE' as const, seconds: 86_400 } };
    const after = { time: { when: 'AFTER' as const, seconds: 600 } };
    expect(unlockAt(show, before, after).toISOString()).toBe('2027-04-30T23:00:00.000Z');
    expect(unlockAt(show, undefined, after).toISOString()).toBe('2027-05-01T23:10:00.000Z');
    expect(unlockAt(show, undefined, undefined).toISOString()).toBe('2027-05-01T20:00:00.000Z');
    expect(unlockAt(show, undefined, undefined, 24).toISOString()).toBe('2027-04-30T23:00:00.000Z');
  });

  it('reads ticketDelivery from a configuration only when well formed', () => {
    expect(deliveryOf({ ticketDelivery: { time: { when: 'BEFORE', seconds: 60 } } })).toEqual({
      time: { when: 'BEFORE', seconds: 60 },
    });
    expect(deliveryOf({ ticketDelivery: { time: { when: 'SOON', seconds: 60 } } })).toBeUndefined();
    expect(deliveryOf({})).toBeUndefined();
    expect(deliveryOf(null)).toBeUndefined();
  });
});

describe('moving code', () => {
  it('is RFC 4226 / 6238: the published test vectors', () => {
    const key = Buffer.from('12345678901234567890');
    // RFC 4226 appendix D.
    expect([0, 1, 2, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '520489']);
    // RFC 6238 appendix B (8 digits, 30-second step, SHA-1).
    expect(totp(key, new Date(59_000), 30, 8)).toBe('94287082');
    expect(totp(key, new Date(1_111_111_109_000), 30, 8)).toBe('07081804');
  });

  it('changes every 10 seconds and differs per ticket link', () => {
    const a = movingCodeKey('a'.repeat(64));
    const b = movingCodeKey('b'.repeat(64));
    const t = new Date('2027-05-01T20:00:00Z');
    expect(totp(a, t)).toMatch(/^\d{6}$/);
    expect(totp(a, new Date(t.getTime() + 9_000))).toBe(totp(a, t));
    expect(totp(a, new Date(t.getTime() + 10_000))).not.toBe(totp(a, t));
    expect(totp(b, t)).not.toBe(totp(a, t));
  });
});
