export type RuleType =
  'RESALE_ENABLED' | 'LISTING_WINDOW' | 'PRICE_LIMITS' | 'MAX_TICKETS_PER_LISTING' | 'P2P_TRANSFER';

export const TYPES: { value: RuleType; label: string }[] = [
  { value: 'RESALE_ENABLED', label: 'Resale on or off' },
  { value: 'LISTING_WINDOW', label: 'Listing window' },
  { value: 'PRICE_LIMITS', label: 'Price limits (% of face value)' },
  { value: 'MAX_TICKETS_PER_LISTING', label: 'Most tickets per listing' },
  { value: 'P2P_TRANSFER', label: 'Peer-to-peer transfer' },
];

/** A rule's values in words ("on", "opens 48 h before, closes 2 h before", "60–120 %"). */
export function describeRule(type: string, rules: Record<string, unknown>): string {
  const n = (k: string) => (typeof rules[k] === 'number' ? (rules[k] as number) : undefined);
  switch (type) {
    case 'RESALE_ENABLED':
      return rules.enabled ? 'Resale on' : 'Resale off';
    case 'P2P_TRANSFER':
      return rules.allowed ? 'Transfer allowed' : 'Transfer not allowed';
    case 'LISTING_WINDOW':
      return (
        [
          n('opensHoursBeforeShow') !== undefined && `opens ${n('opensHoursBeforeShow')} h before the show`,
          n('closesHoursBeforeShow') !== undefined && `closes ${n('closesHoursBeforeShow')} h before the show`,
        ]
          .filter(Boolean)
          .join(', ') || 'open until the show'
      );
    case 'PRICE_LIMITS':
      return `${n('minPercentOfFace') ?? 0} % to ${n('maxPercentOfFace') !== undefined ? `${n('maxPercentOfFace')} %` : 'any'} of face value`;
    case 'MAX_TICKETS_PER_LISTING':
      return `at most ${n('max')} per listing`;
    default:
      return JSON.stringify(rules);
  }
}

export const scopeOf = (r: { showId: string | null; ticketOptionId: string | null; priceTypeId: string | null }) =>
  [
    r.showId && `Show ${r.showId}`,
    r.ticketOptionId && `option ${r.ticketOptionId}`,
    r.priceTypeId && `price type ${r.priceTypeId}`,
  ]
    .filter(Boolean)
    .join(' · ') || 'Whole event';
