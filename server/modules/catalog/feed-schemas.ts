import { z } from 'zod';
import type { DbOrTx } from '@/db';
import {
  amountField,
  type CallOutcome,
  callOutcome,
  currencyCodeField,
  fetchFeedAnswer,
  invalidAnswer,
  partnerIdField,
} from '@/server/modules/partners';

/*
 * The partner's event feed as it arrives (spec, "Partner-side interfaces → Event feed"): its wire shape,
 * checked before anything is applied. The partners module makes the call; the catalogue owns the shape.
 */

const feedTicketOption = z
  .looseObject({
    ticketId: partnerIdField.optional(),
    ticketOptionId: partnerIdField.optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    currency: currencyCodeField.optional(),
    price: amountField.nullable().optional(),
    stock: z.number().optional(),
    area: z.string().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.ticketId === undefined && o.ticketOptionId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ticketId'], message: 'is required (or ticketOptionId)' });
    } else if (o.ticketId !== undefined && o.ticketOptionId !== undefined && o.ticketId !== o.ticketOptionId) {
      ctx.addIssue({ code: 'custom', path: ['ticketOptionId'], message: 'differs from ticketId' });
    }
  })
  // One name downstream: combinations call it ticketOptionId, the push API's ticketOption calls it ticketId.
  .transform(({ ticketId, ticketOptionId, ...rest }) => ({
    ...rest,
    ticketOptionId: ticketOptionId ?? ticketId ?? '',
  }));

const feedPriceType = z.looseObject({
  priceTypeId: partnerIdField,
  title: z.string().optional(),
  description: z.string().optional(),
});

const feedCombination = z.object({
  ticketOptionId: partnerIdField,
  priceTypeId: partnerIdField,
  price: amountField,
  description: z.string().optional(),
});

function duplicates(values: string[]): Set<number> {
  const seen = new Set<string>();
  const dup = new Set<number>();
  values.forEach((v, i) => (seen.has(v) ? dup.add(i) : seen.add(v)));
  return dup;
}

const feedShow = z
  .looseObject({
    showId: partnerIdField,
    status: z.string().trim().min(1, 'must not be empty'),
    dates: z.looseObject({ startsAt: z.iso.datetime({ offset: true }) }),
    ticketOptions: z.array(feedTicketOption),
    priceTypes: z.array(feedPriceType).optional(),
    combinations: z.array(feedCombination).optional(),
  })
  .superRefine((show, ctx) => {
    // Price Detail model: price types sell only through explicitly declared combinations.
    if (show.priceTypes !== undefined && show.combinations === undefined) {
      ctx.addIssue({ code: 'custom', path: ['combinations'], message: 'is required when priceTypes is present' });
    }
    const optionIds = show.ticketOptions.map((o) => o.ticketOptionId);
    for (const i of duplicates(optionIds)) {
      ctx.addIssue({ code: 'custom', path: ['ticketOptions', i, 'ticketOptionId'], message: 'is a duplicate' });
    }
    const priceTypeIds = (show.priceTypes ?? []).map((p) => p.priceTypeId);
    for (const i of duplicates(priceTypeIds)) {
      ctx.addIssue({ code: 'custom', path: ['priceTypes', i, 'priceTypeId'], message: 'is a duplicate' });
    }
    const combos = show.combinations ?? [];
    combos.forEach((c, i) => {
      if (!optionIds.includes(c.ticketOptionId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['combinations', i, 'ticketOptionId'],
          message: `names no ticket option of this show (${c.ticketOptionId})`,
        });
      }
      if (!priceTypeIds.includes(c.priceTypeId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['combinations', i, 'priceTypeId'],
          message: `names no price type of this show (${c.priceTypeId})`,
        });
      }
    });
    for (const i of duplicates(combos.map((c) => `${c.ticketOptionId}\u0000${c.priceTypeId}`))) {
      ctx.addIssue({
        code: 'custom',
        path: ['combinations', i],
        message: 'repeats a ticketOptionId + priceTypeId pair',
      });
    }
  });

export const feedEvent = z
  .looseObject({
    externalReferenceId: partnerIdField,
    shows: z.array(feedShow),
  })
  .superRefine((event, ctx) => {
    for (const i of duplicates(event.shows.map((s) => s.showId))) {
      ctx.addIssue({ code: 'custom', path: ['shows', i, 'showId'], message: 'is a duplicate' });
    }
  });

const feedEvents = z.array(feedEvent).superRefine((events, ctx) => {
  for (const i of duplicates(events.map((e) => e.externalReferenceId))) {
    ctx.addIssue({ code: 'custom', path: [i, 'externalReferenceId'], message: 'is a duplicate' });
  }
});

export type FeedEvent = z.output<typeof feedEvent>;

export interface EventFeed {
  /**
   * The feed's events. A feed may answer one event object (the spec's shape) or an array of them (one
   * feed for a partner's whole catalogue); both arrive here as a list. Error paths follow the answer:
   * `shows[0]…` for one object, `[2].shows[0]…` for an array.
   */
  events: FeedEvent[];
  fetchedAt: Date;
  durationMs: number;
}

export interface FeedSummary {
  events: number;
  shows: number;
  ticketOptions: number;
  priceTypes: number;
  combinations: number;
}

function summarizeFeed(feed: EventFeed): FeedSummary {
  const shows = feed.events.flatMap((e) => e.shows);
  return {
    events: feed.events.length,
    shows: shows.length,
    ticketOptions: shows.reduce((n, s) => n + s.ticketOptions.length, 0),
    priceTypes: shows.reduce((n, s) => n + (s.priceTypes?.length ?? 0), 0),
    combinations: shows.reduce((n, s) => n + (s.combinations?.length ?? 0), 0),
  };
}

/**
 * Reads and validates the partner's event feed. It touches neither the catalogue nor the schedule: a
 * run (fetch + apply, recorded on the integration) is `pullFeed`; this alone is also the dashboard's
 * "Fetch feed now" check.
 */
export async function fetchEventFeed(partnerId: string, db: DbOrTx): Promise<EventFeed> {
  const { json, fetchedAt, durationMs } = await fetchFeedAnswer(partnerId, db);
  const parsed = Array.isArray(json)
    ? feedEvents.safeParse(json, { reportInput: true })
    : feedEvent.transform((e) => [e]).safeParse(json, { reportInput: true });
  if (!parsed.success) throw invalidAnswer('event feed', parsed.error);
  return { events: parsed.data, fetchedAt, durationMs };
}

/** Reads and checks the feed now and answers its counts; nothing is applied or recorded (not a run). */
export async function fetchFeedNow(
  partnerId: string,
  db: DbOrTx,
): Promise<CallOutcome<FeedSummary & { durationMs: number }>> {
  return callOutcome(async () => {
    const feed = await fetchEventFeed(partnerId, db);
    return { ...summarizeFeed(feed), durationMs: feed.durationMs };
  });
}
