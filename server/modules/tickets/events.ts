import type { Tx } from '@/db';
import { domainEvent } from '@/server/lib/domain-event';

/*
 * The tickets module's domain events. The modules above it subscribe by name in server/wiring.ts (their
 * handlers are in server/modules/<module>/reactions/<event>.ts); tickets never imports them.
 */

export type TicketsInvalidatedListener = (tx: Tx, ticketPks: string[]) => Promise<void>;

/**
 * Tickets invalidated: a VALID ticket became INVALIDATED by the partner (DELETE /v1/tickets/{ticketId}),
 * inside that transaction, once (a repeated DELETE does not fire it). Tickets of cancelled shows are
 * invalidated by the show cancellation itself, which does not fire this.
 */
const ticketsInvalidated = domainEvent<[Tx, string[]]>('Ticket invalidation', { required: true });

export function onTicketsInvalidated(name: string, listener: TicketsInvalidatedListener): void {
  ticketsInvalidated.subscribe(name, listener);
}

export function notifyTicketsInvalidated(tx: Tx, ticketPks: string[]): Promise<void> {
  return ticketsInvalidated.publish(tx, ticketPks);
}

/** A ticket given to another holder, and that holder's e-mail (null: the partner sent no buyer). */
export interface TicketChangeOfHands {
  ticketPk: string;
  buyerEmail: string | null;
}

export type TicketsChangedHandsListener = (tx: Tx, changes: TicketChangeOfHands[]) => Promise<void>;

/**
 * Tickets changed hands: the partner gave a VALID ticket another buyer (PUT /v1/tickets/{ticketId}), inside
 * that transaction, once per change (a PUT naming the same buyer again does not fire it).
 */
const ticketsChangedHands = domainEvent<[Tx, TicketChangeOfHands[]]>('Ticket change of hands', { required: true });

export function onTicketsChangedHands(name: string, listener: TicketsChangedHandsListener): void {
  ticketsChangedHands.subscribe(name, listener);
}

export function notifyTicketsChangedHands(tx: Tx, changes: TicketChangeOfHands[]): Promise<void> {
  return ticketsChangedHands.publish(tx, changes);
}
