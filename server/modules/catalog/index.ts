/**
 * The catalogue: events, shows, ticket options, price types, combinations and resale rules (PUSH API,
 * the partner's feed PULL, the staff browser). Owns the tables of db/schema/catalog.ts; other modules
 * read them only through lookups.ts (`catalogueFor`, `showDirectory`, `showPksOfEvents`) and learn of
 * cancellations and resale turned off through events.ts (`onShowsCancelled`, `onResaleTurnedOff`).
 */
export {
  eventRef,
  getEventDetail,
  getShowSummary,
  listEvents,
  listEventsInput,
  type ListEventsInput,
  showRef,
} from './browse';
export { applyRulesRoute, cancelEventRoute, createEventRoute, updateEventRoute } from './contracts';
export { onResaleTurnedOff, onShowsCancelled } from './events';
export { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from './examples';
export { pullFeed } from './feed';
export { pullDueFeedsJob, pullFeedJob } from './jobs';
export { feedEvent, fetchEventFeed, fetchFeedNow } from './feed-schemas';
export {
  type Catalogue,
  catalogueFor,
  eventPageInfo,
  eventSeating,
  type EventPageInfo,
  getEventTitle,
  holdShows,
  optionPrices,
  partnerOfEvent,
  priceTypesOfShows,
  type SellShowLabel,
  sellShowLabels,
  showConfigurations,
  showDirectory,
  showOptionCurrencies,
  showPksOfEvents,
  type ShowRef,
  type StoredPrimarySalesFee,
} from './lookups';
export {
  applyRules,
  effectiveResaleRules,
  type EffectiveResaleRules,
  pickResaleRules,
  resaleRulesOfEvents,
} from './rules';
export { rulesRequestSchema } from './rules-schemas';
export { type EventCreateBody, eventCreateSchema } from './schemas';
export { cancelEvent, createEvent, getEvent, updateEvent } from './event-api';
export { deleteStaffRule, eventRules, explainRules, saveStaffRule, staffRuleInput } from './rules-admin';
export { wipeCatalogTestData } from './wipe';
