import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret } from 'otpauth';

/*
 * Two-factor sign-in's codes: TOTP (RFC 6238) with the settings every authenticator app assumes — HMAC-SHA1,
 * 6 digits, 30-second steps — through `otpauth` (as the ticket view's moving code). A code of the step before
 * or after the server's is taken too, for a phone's clock that drifts; the caller refuses a step it has seen.
 */

const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of now whose code is accepted (±30 s of clock drift). */
const TOTP_DRIFT_STEPS = 1;
const ISSUER = 'Encore';

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation) as base32, as the apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The step a moment falls in (seconds since 1970 over 30). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a base32 secret at a moment. */
export function totpCode(secret: string, atMs: number): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secret),
    counter: totpStep(atMs),
    digits: TOTP_DIGITS,
    algorithm: 'SHA1',
  });
}

/**
 * The step whose code `code` is, among the step of `atMs` and TOTP_DRIFT_STEPS either side (the latest
 * first), or null when none matches. Compared in constant time.
 */
export function totpMatchingStep(secret: string, code: string, atMs: number): number | null {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return null;
  const now = totpStep(atMs);
  for (let step = now + TOTP_DRIFT_STEPS; step >= now - TOTP_DRIFT_STEPS; step--) {
    const expected = HOTP.generate({
      secret: Secret.fromBase32(secret),
      counter: step,
      digits: TOTP_DIGITS,
      algorithm: 'SHA1',
    });
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return step;
  }
  return null;
}

/** The otpauth:// URI an authenticator app reads (from a QR code, or typed): issuer Encore, the member's e-mail. */
export function totpUri(secret: string, account: string): string {
  const label = `${encodeURIComponent(ISSUER)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer: ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
