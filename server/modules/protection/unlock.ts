import { createHmac } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

/*
 * Ticket protection's clock: when a ticket's code may be shown (unlock), and the moving code that tells
 * a live screen from a picture of it.
 */

/** Hours before the show a code unlocks when the partner sent no `ticketDelivery` (anchor notes: 3). */
export const DEFAULT_UNLOCK_HOURS = 3;

export interface TicketDelivery {
  time?: { when?: 'BEFORE' | 'AFTER'; seconds?: number };
}

/** `configuration.ticketDelivery` when it is well formed, else undefined. */
export function deliveryOf(configuration: unknown): TicketDelivery | undefined {
  const d = (configuration as { ticketDelivery?: TicketDelivery } | null)?.ticketDelivery;
  const t = d?.time;
  if (!t || (t.when !== 'BEFORE' && t.when !== 'AFTER') || typeof t.seconds !== 'number' || t.seconds < 0)
    return undefined;
  return d;
}

/**
 * When the code unlocks: the show's `ticketDelivery.time` (else the event's) — BEFORE or AFTER the show
 * by `seconds` — and otherwise `defaultHours` before the show.
 */
export function unlockAt(
  startsAt: Date,
  show: TicketDelivery | undefined,
  event: TicketDelivery | undefined,
  defaultHours = DEFAULT_UNLOCK_HOURS,
): Date {
  const time = (show ?? event)?.time;
  if (time?.when && typeof time.seconds === 'number') {
    const sign = time.when === 'BEFORE' ? -1 : 1;
    return new Date(startsAt.getTime() + sign * time.seconds * 1000);
  }
  return new Date(startsAt.getTime() - defaultHours * 3_600_000);
}

/** The moving code's period: short enough that a screenshot is stale before it reaches the door. */
export const MOVING_CODE_SECONDS = 10;

/** HOTP (RFC 4226): the `digits`-digit code of `key` at `counter`, with HMAC-`algorithm`. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  return HOTP.generate({ secret: secretOf(key), counter, digits, algorithm: algorithm.toUpperCase() });
}

/** TOTP (RFC 6238): the code of `key` at `now`, with a `step`-second period. */
export function totp(
  key: Buffer,
  now: Date,
  step = MOVING_CODE_SECONDS,
  digits = 6,
  algorithm: 'sha1' | 'sha256' = 'sha1',
) {
  return TOTP.generate({
    secret: secretOf(key),
    timestamp: now.getTime(),
    period: step,
    digits,
    algorithm: algorithm.toUpperCase(),
  });
}

// A small Buffer is a view on Node's shared pool, whose `.buffer` is the whole pool: copy the key's own bytes.
function secretOf(key: Buffer): Secret {
  return new Secret({ buffer: Uint8Array.from(key).buffer });
}

/**
 * A ticket's moving-code key, derived from its secure-view token (which rotates when the ticket changes
 * hands, so the old holder's key dies with the old link). It is not the access code and opens nothing.
 */
export function movingCodeKey(secureToken: string): Buffer {
  return createHmac('sha256', secureToken).update('encore moving code v1').digest();
}

/**
 * A ticket's unlock time and whether it has passed: staff's override (hours before the show) first, then
 * the show's (else the event's) `ticketDelivery`, then the partner's default hours.
 */
export function unlockState(
  startsAt: Date,
  showConfiguration: unknown,
  eventConfiguration: unknown,
  now = new Date(),
  opts: { overrideHours?: number | null; defaultHours?: number } = {},
): { unlocksAt: Date; unlocked: boolean } {
  const at =
    opts.overrideHours !== undefined && opts.overrideHours !== null
      ? new Date(startsAt.getTime() - opts.overrideHours * 3_600_000)
      : unlockAt(startsAt, deliveryOf(showConfiguration), deliveryOf(eventConfiguration), opts.defaultHours);
  return { unlocksAt: at, unlocked: now.getTime() >= at.getTime() };
}
