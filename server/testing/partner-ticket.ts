/**
 * A ticket as a partner pushes it (`POST /v1/sync/tickets` or `POST /v1/tickets`): show `1`, option GA,
 * bought by `owner`, its access code `CODE-<ticketId>`; `extra` adds or overrides fields. The e2e specs
 * (e2e/helpers.ts) and the chaos run's traffic push the same shape.
 */
export function partnerTicket(ref: string, ticketId: string, owner: string, extra: Record<string, unknown> = {}) {
  return {
    externalReferenceEventId: ref,
    showId: '1',
    ticketId,
    buyer: { email: owner },
    ticketAccess: { type: 'OTHER', locator: `CODE-${ticketId}` },
    ticketOptionId: 'GA',
    ...extra,
  };
}
