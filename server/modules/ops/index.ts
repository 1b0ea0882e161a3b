/**
 * Ops: read-only staff reporting (support search, overview, money reconciliation, exports, the market's
 * listings, purchases and payouts, a ticket's history with its market). A documented
 * exception to "a table is read only by its owner": it READS other modules' tables in SQL (joins no
 * owner's function could make one row at a time) and never writes; every action goes through the owner.
 */
export {
  checkOverviewScope,
  marketOverview,
  type MarketOverview,
  overviewBounds,
  overviewFilterOptions,
  overviewInput,
  type OverviewInput,
} from './overview';
export {
  FAN_SECTIONS,
  type FanSection,
  opsSearch,
  opsSearchInput,
  type OpsSearchResult,
  SEARCH_MAX_LENGTH,
} from './search';
export { periodInput, periodOf, thisWeek } from './period';
export { type PayoutState, reconcile } from './reconciliation';
export { isMoneyExportKind, MONEY_EXPORT_KINDS, moneyCsv } from './money-exports';
export {
  LISTING_STATUS_VALUES,
  listListings,
  listListingsInput,
  listPayouts,
  listPayoutsInput,
  listPurchases,
  listPurchasesInput,
  PAYOUT_STATUSES,
} from './market-lists';
export { ticketDetailWithMarket } from './ticket-history';
