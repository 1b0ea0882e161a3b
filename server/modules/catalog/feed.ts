import type { z } from 'zod';
import type { Db, DbOrTx } from '@/db';
import { AppError, type ErrorDetail, zodDetails } from '@/server/lib/errors';
import { errorFields, log } from '@/server/lib/log';
import { transaction } from '@/server/lib/transaction';
import { type CallOutcome, PartnerCallError, recordFeedRun } from '@/server/modules/partners';
import { type EventFeed, type FeedEvent, fetchEventFeed } from './feed-schemas';
import { applyRules } from './rules';
import type { RuleItem } from './rules-schemas';
import {
  type EventResponse,
  type ShowResponse,
  type TicketOptionResponse,
  eventCreateSchema,
  eventUpdateSchema,
} from './schemas';
import { createEvent, getEvent, updateEvent } from './event-api';

/*
 * PULL (spec, "Partner-side interfaces → Event feed"): the partner's feed applied to its catalogue.
 *
 * Every feed event goes through the same functions as PUSH (`createEvent` for an event this partner
 * has not got yet, `updateEvent` for a known one, `applyRules` for combinations), after the same zod
 * schemas, so the two ways in cannot disagree about what a valid event is. The feed carries fewer
 * fields than `POST /v1/events` requires; what it lacks is filled like this (decided here, the spec
 * is silent):
 * - A field the feed object carries is used as sent (feed objects are loose: `title`, `description`,
 *   `location`, `images`, `configuration`… are picked up when present) and validated like PUSH input.
 * - A field it does not carry keeps the catalogue's value for a known event, show or ticket option
 *   (an update never blanks what PUSH or an earlier feed stored).
 * - Only something new gets a default: event title = its externalReferenceId (the one name the
 *   feed guarantees), description '', location {}, configuration {}; show title = the event's title,
 *   images [], configuration {}; ticket option title = its id, description ''. A missing currency is
 *   not guessed: the event is refused (money without a currency has no meaning).
 */

type FeedShow = FeedEvent['shows'][number];
type FeedOption = FeedShow['ticketOptions'][number];
type Json = Record<string, unknown>;

/* ---------- Mapping ---------- */

/** Partners spell it both ways, in any case. */
const CANCELLED_STATUSES = new Set(['CANCELLED', 'CANCELED']);

function isCancelledFeedStatus(status: string): boolean {
  return CANCELLED_STATUSES.has(status.trim().toUpperCase());
}

/** The entries that carry a value: a null or absent field is "not sent", so a default or stored value applies. */
function carried(obj: Json): Json {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * Any feed status other than a cancelled one (`ON_SALE`, `SOLD_OUT`, `POSTPONED`…) is a live show. A
 * show the catalogue already cancelled stays cancelled (cancellation is irreversible: its tickets were
 * invalidated), so a feed still saying ON_SALE for it sends no status instead of being refused.
 */
function showStatus(status: string, stored: ShowResponse | undefined): Json {
  if (isCancelledFeedStatus(status)) return { status: 'CANCELLED' };
  return stored?.status === 'CANCELLED' ? {} : { status: 'LIVE' };
}

function optionBody(option: FeedOption, stored: TicketOptionResponse | undefined): Json {
  const { ticketOptionId, price, ...rest } = option;
  return {
    title: stored?.title ?? ticketOptionId,
    description: stored?.description ?? '',
    ...(stored ? { currency: stored.currency } : {}),
    ...carried(rest),
    // null is meaningful here ("no price"), unlike for the other fields.
    ...(price !== undefined ? { price } : {}),
    ticketId: ticketOptionId,
  };
}

function showBody(show: FeedShow, stored: ShowResponse | undefined, eventTitle: unknown): Json {
  const { showId, status, dates, ticketOptions, priceTypes, combinations: _combinations, ...rest } = show;
  const storedOptions = new Map((stored?.ticketOptions ?? []).map((o) => [o.ticketId, o]));
  return {
    // A show new to the catalogue must be complete; a known one keeps what the feed does not carry.
    ...(stored ? {} : { title: eventTitle, images: [], configuration: {} }),
    ...carried(rest),
    showId,
    date: dates.startsAt,
    ...showStatus(status, stored),
    ticketOptions: ticketOptions.map((o) => optionBody(o, storedOptions.get(o.ticketOptionId))),
    ...(priceTypes ? { priceTypes: priceTypes.map(carried) } : {}),
  };
}

/**
 * The `POST`/`PUT /v1/events` body for one feed event, before validation. Show and option order is
 * kept, so a validation path (`shows[0].ticketOptions[1].currency`) names the same place in the feed.
 */
function feedEventBody(event: FeedEvent, stored: EventResponse | null): Json {
  const { externalReferenceId, shows, ...rest } = event;
  const given = carried(rest);
  const eventTitle = given.title ?? stored?.title ?? externalReferenceId;
  const storedShows = new Map((stored?.shows ?? []).map((s) => [s.showId, s]));
  const showBodies = shows.map((s) => showBody(s, storedShows.get(s.showId), eventTitle));
  return {
    ...(stored ? {} : { title: externalReferenceId, description: '', location: {}, configuration: {} }),
    ...given,
    externalReferenceId,
    // An update with no shows changes only the event; an empty list would be refused by the schema.
    ...(stored && showBodies.length === 0 ? {} : { shows: showBodies }),
  };
}

/* ---------- Refusals ---------- */

/** Why the catalogue refused one feed event, with paths relative to that event. */
class Refusal extends Error {
  constructor(readonly details: ErrorDetail[]) {
    super(details[0]?.message ?? 'refused');
  }
}

/** `shows[0].currency is required`, `shows[0].status: Invalid option…` (as the API's envelope phrases it). */
function sentence(detail: ErrorDetail): string {
  if (!detail.path) return detail.message;
  return /^[a-z]/.test(detail.message) ? `${detail.path} ${detail.message}` : `${detail.path}: ${detail.message}`;
}

function parseOrRefuse<S extends z.ZodType>(schema: S, body: Json): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Refusal(zodDetails(parsed.error, 'body'));
  return parsed.data;
}

/* ---------- Combinations ---------- */

interface CombinationRules {
  items: RuleItem[];
  /** The feed path of each item, to name an `applyRules` problem (`[3].price`) where the feed has it. */
  paths: string[];
}

/**
 * The feed's combinations as `COMBINATION` rules. The pairs were checked by the feed's validation (both
 * ids belong to the show); prices are checked by `applyRules`, in the event's transaction.
 */
function combinationRules(event: FeedEvent): CombinationRules {
  const items: RuleItem[] = [];
  const paths: string[] = [];
  event.shows.forEach((show, i) => {
    (show.combinations ?? []).forEach((c, j) => {
      items.push({
        externalReferenceEventId: event.externalReferenceId,
        showId: show.showId,
        ticketOptionId: c.ticketOptionId,
        priceTypeId: c.priceTypeId,
        price: c.price,
        ruleType: 'COMBINATION',
        ...(c.description !== undefined ? { description: c.description } : {}),
      });
      paths.push(`shows[${i}].combinations[${j}]`);
    });
  });
  return { items, paths };
}

async function applyCombinations(partnerId: string, rules: CombinationRules, db: DbOrTx): Promise<void> {
  if (!rules.items.length) return;
  try {
    await applyRules(partnerId, rules.items, db);
  } catch (err) {
    if (!(err instanceof AppError) || !err.details?.length) throw err;
    // `[3].price` → `shows[1].combinations[0].price`
    throw new Refusal(
      err.details.map((d) => ({
        ...d,
        path: d.path.replace(/^\[(\d+)\]/, (whole, k: string) => rules.paths[Number(k)] ?? whole),
      })),
    );
  }
}

/* ---------- Applying ---------- */

async function storedEvent(partnerId: string, externalReferenceId: string, db: DbOrTx): Promise<EventResponse | null> {
  try {
    return await getEvent(partnerId, externalReferenceId, db);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

type Applied = 'created' | 'updated';

/**
 * One feed event, in one transaction: the event (created, or updated) and its combinations are stored
 * together or not at all.
 */
async function applyFeedEvent(partnerId: string, event: FeedEvent, db: Db): Promise<Applied> {
  return transaction(async (work) => {
    const { tx } = work;
    const rules = combinationRules(event);
    let stored = await storedEvent(partnerId, event.externalReferenceId, tx);
    if (!stored) {
      try {
        await createEvent(partnerId, parseOrRefuse(eventCreateSchema, feedEventBody(event, null)), tx);
        await applyCombinations(partnerId, rules, tx);
        return 'created';
      } catch (err) {
        // Created meanwhile (a PUSH, or a manual pull beside the scheduled one): applied as an update.
        if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
        stored = await storedEvent(partnerId, event.externalReferenceId, tx);
        if (!stored) throw err;
      }
    }
    await updateEvent(partnerId, parseOrRefuse(eventUpdateSchema, feedEventBody(event, stored)), work);
    await applyCombinations(partnerId, rules, tx);
    return 'updated';
  }, db);
}

export interface FeedEventRefusal {
  /** Position of the event in the feed (0 for a feed answering one event object). */
  index: number;
  externalReferenceId: string;
  /** One readable line: the first problem, and how many more there are. */
  message: string;
  /** Every problem, paths relative to the event (`shows[0].ticketOptions[1].currency`). */
  details: ErrorDetail[];
}

export interface FeedApplyResult {
  events: number;
  created: number;
  updated: number;
  refused: FeedEventRefusal[];
}

function refusalOf(index: number, event: FeedEvent, err: unknown, partnerId: string): FeedEventRefusal {
  let details: ErrorDetail[];
  if (err instanceof Refusal) details = err.details;
  else if (err instanceof AppError) details = err.details?.length ? err.details : [{ path: '', message: err.message }];
  else {
    // Not the feed's fault (database down, a bug): logged in full, named without internals in the run's error.
    log.error('feed event could not be applied', {
      partnerId,
      externalReferenceId: event.externalReferenceId,
      ...errorFields(err),
    });
    details = [{ path: '', message: 'could not be applied because of an internal error (see the logs)' }];
  }
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return { index, externalReferenceId: event.externalReferenceId, message: `${sentence(details[0])}${more}`, details };
}

/**
 * Applies every event of a fetched feed to the partner's catalogue. Each event is applied on its own:
 * one the catalogue refuses is reported and the others still go in. Shows, options and price types
 * missing from the feed are kept (as with `PUT /v1/events`); a show is cancelled only when the feed
 * says so, never for disappearing, since cancelling invalidates its tickets and cannot be undone.
 */
async function applyFeed(partnerId: string, feed: EventFeed, db: Db): Promise<FeedApplyResult> {
  const result: FeedApplyResult = { events: feed.events.length, created: 0, updated: 0, refused: [] };
  for (const [index, event] of feed.events.entries()) {
    try {
      result[await applyFeedEvent(partnerId, event, db)] += 1;
    } catch (err) {
      result.refused.push(refusalOf(index, event, err, partnerId));
    }
  }
  return result;
}

const MAX_LISTED_REFUSALS = 5;
const MAX_ERROR_LENGTH = 2000;

/** The run's error for the integration: `2 of 5 events refused: [1] evt-2: shows[0]… is required; …`, or null. */
export function describeRefusals(result: FeedApplyResult): string | null {
  const { refused, events } = result;
  if (!refused.length) return null;
  const listed = refused
    .slice(0, MAX_LISTED_REFUSALS)
    .map((r) => `[${r.index}] ${r.externalReferenceId}: ${r.message}`);
  const more = refused.length > MAX_LISTED_REFUSALS ? `; … and ${refused.length - MAX_LISTED_REFUSALS} more` : '';
  const text = `${refused.length} of ${events} event${events === 1 ? '' : 's'} refused: ${listed.join('; ')}${more}`;
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

/* ---------- One pull ---------- */

export interface FeedPullResult extends FeedApplyResult {
  /** What was recorded as the run's error: null when every event went in. */
  error: string | null;
  durationMs: number;
}

/**
 * One PULL run: fetch and validate, apply, record the outcome on the integration (when it ran, its
 * error or null, the next run). A partner's failure is a result (`ok: false`), not a throw: it is
 * recorded with the next run scheduled, and the job that called this must not retry it. A partner
 * without a feed URL has no run to record.
 */
export async function pullFeed(partnerId: string, db: Db): Promise<CallOutcome<FeedPullResult>> {
  let feed: EventFeed;
  try {
    feed = await fetchEventFeed(partnerId, db);
  } catch (err) {
    if (!(err instanceof PartnerCallError)) throw err;
    if (err.reason !== 'not_configured') await recordFeedRun(partnerId, err.message, db);
    const { reason, message, details = [], httpStatus = null } = err;
    return { ok: false, error: { reason, message, details, httpStatus } };
  }
  const applied = await applyFeed(partnerId, feed, db);
  const error = describeRefusals(applied);
  await recordFeedRun(partnerId, error, db);
  return { ok: true, result: { ...applied, error, durationMs: feed.durationMs } };
}

/* ---------- Schedule ---------- */
