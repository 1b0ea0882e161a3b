import { domainEvent } from '@/server/lib/domain-event';
import type { Work } from '@/server/lib/transaction';

/*
 * The catalogue's domain events. The modules above it subscribe by name in server/wiring.ts (their
 * handlers are in server/modules/<module>/reactions/<event>.ts); the catalogue never imports them.
 */

/** What another module does when shows stop (cancelled, or resale off), inside the changing transaction (with its after-commit list). */
export type ShowsCancelledListener = (work: Work, showPks: string[]) => Promise<void>;

/**
 * Shows cancelled: fires once per show, for the shows `cancelShows` moved to CANCELLED, inside the
 * cancelling transaction (PUT /v1/events, POST …/cancellation, the feed). Required: a cancellation with
 * no subscriber throws, since valid tickets must never stay on a cancelled show.
 */
const showsCancelled = domainEvent<[Work, string[]]>('Show cancellation', { required: true });

export function onShowsCancelled(name: string, listener: ShowsCancelledListener): void {
  showsCancelled.subscribe(name, listener);
}

export function notifyShowsCancelled(work: Work, showPks: string[]): Promise<void> {
  return showsCancelled.publish(work, showPks);
}

/**
 * Resale turned off: the partner set `resaleEnabled` false on shows that had it (PUT /v1/events, the
 * feed), inside the updating transaction; their open listings come off sale.
 */
const resaleTurnedOff = domainEvent<[Work, string[]]>('Resale turned off', { required: true });

export function onResaleTurnedOff(name: string, listener: ShowsCancelledListener): void {
  resaleTurnedOff.subscribe(name, listener);
}

export function notifyResaleTurnedOff(work: Work, showPks: string[]): Promise<void> {
  return resaleTurnedOff.publish(work, showPks);
}
