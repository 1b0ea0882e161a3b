import { domainEvent } from '@/server/lib/domain-event';
import type { Work } from '@/server/lib/transaction';

/*
 * The protection module's domain events. The modules above it subscribe by name in server/wiring.ts
 * (their handlers are in server/modules/<module>/reactions/<event>.ts); protection never imports them.
 */

type ProtectionTurnedOffListener = (work: Work, showPks: string[]) => Promise<void>;

/**
 * Protection turned off: staff's switch (`setScopeProtection`) left these shows unprotected, inside the
 * switching transaction, with their `ticketShield.updated` in its outbox. Resale needs protection, so a
 * subscriber must take the shows' open listings off sale; required for that reason.
 */
const protectionTurnedOff = domainEvent<[Work, string[]]>('Protection turned off', { required: true });

export function onProtectionTurnedOff(name: string, listener: ProtectionTurnedOffListener): void {
  protectionTurnedOff.subscribe(name, listener);
}

export function notifyProtectionTurnedOff(work: Work, showPks: string[]): Promise<void> {
  return protectionTurnedOff.publish(work, showPks);
}
