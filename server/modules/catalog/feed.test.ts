import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { combinations, partnerIntegrations, shows, tickets } from '@/db/schema';
import { AppError } from '@/server/lib/errors';
import { claimDueFeeds, getIntegration, updateIntegration } from '@/server/modules/partners';
import { syncTickets } from '@/server/modules/tickets';
import { setEnv } from '@/server/testing/env';
import { FakePartner, fakeFeedEvent } from '@/server/testing/fake-partner';
import { makePartner } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { createCallerFactory } from '@/server/trpc/init';
import { partnersRouter } from '@/server/trpc/routers/partners';
import { describeRefusals, pullFeed } from './feed';
import { pullDueFeedsJob, pullFeedJob } from './jobs';
import { getEvent } from './event-api';

// The sweep queues pulls through the job client; here its provider records them and pulls are run directly.
let jobs: ReturnType<typeof recordJobs>;

let fake: FakePartner;
let restoreEnv: () => void;
beforeAll(async () => {
  fake = await FakePartner.start();
  restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
});
beforeEach(() => {
  fake.reset();
  jobs = recordJobs();
});
afterEach(() => jobs.restore());
afterAll(async () => {
  restoreEnv();
  await fake.close();
});

const ctx = { provider: 'local' as const, attempt: 1 };

/** A fresh partner whose feed is the fake partner's `/feed`; a new feed URL is due at once. */
async function feedPartner(feedUrl: string | null = `${fake.origin}/feed`) {
  const { partner } = await makePartner('Feed');
  await updateIntegration({ partnerId: partner.id, feedUrl }, getDb());
  return partner.id;
}

type FeedShow = Record<string, unknown>;

/** A Standard-model show (one ticket option) with ids of its own. */
function feedShow(showId: string, extra: FeedShow = {}): FeedShow {
  return {
    showId,
    status: 'ON_SALE',
    dates: { startsAt: '2030-07-01T21:00:00+02:00' },
    ticketOptions: [{ ticketId: `${showId}-GA`, title: 'General', currency: 'EUR', price: '30.00' }],
    ...extra,
  };
}

async function pulled(partnerId: string) {
  const outcome = await pullFeed(partnerId, getDb());
  if (!outcome.ok) throw new Error(`pull failed: ${outcome.error.message}`);
  return outcome.result;
}

async function notFound(p: Promise<unknown>) {
  await expect(p).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'NOT_FOUND');
}

async function combinationsOf(partnerId: string, showId: string) {
  return getDb()
    .select({
      ticketOptionId: combinations.ticketOptionId,
      priceTypeId: combinations.priceTypeId,
      currency: combinations.currency,
      priceMinor: combinations.priceMinor,
      description: combinations.description,
    })
    .from(combinations)
    .innerJoin(shows, eq(shows.id, combinations.showPk))
    .where(and(eq(shows.partnerId, partnerId), eq(shows.showId, showId)))
    .orderBy(asc(combinations.priceTypeId));
}

describe('pullFeed', () => {
  it('imports a new event with its shows, options, price types and combinations', async () => {
    const partnerId = await feedPartner();
    fake.feed = fakeFeedEvent({ priceDetail: true });

    const result = await pulled(partnerId);
    expect(result).toMatchObject({ events: 1, created: 1, updated: 0, refused: [], error: null });

    const event = await getEvent(partnerId, 'evt-1', getDb());
    // The feed's loose `title` is used; what the feed lacks gets the documented defaults.
    expect(event).toMatchObject({ title: 'Concert', description: '', externalReferenceId: 'evt-1', configuration: {} });
    expect(event.shows).toHaveLength(1);
    expect(event.shows[0]).toMatchObject({
      showId: 'show-1',
      title: 'Concert',
      date: '2030-06-01T20:00:00+02:00',
      status: 'LIVE',
      showRescheduled: false,
      images: [],
      configuration: {},
    });
    expect(event.shows[0].ticketOptions).toEqual([
      expect.objectContaining({
        ticketId: 'opt-1',
        title: 'Floor',
        description: 'Standing',
        currency: 'EUR',
        price: 50,
      }),
      expect.objectContaining({ ticketId: 'opt-2', title: 'Balcony', description: 'Seated', price: 65 }),
    ]);
    expect(event.shows[0].priceTypes?.map((p) => p.priceTypeId)).toEqual(['adult', 'child']);
    expect(await combinationsOf(partnerId, 'show-1')).toEqual([
      { ticketOptionId: 'opt-1', priceTypeId: 'adult', currency: 'EUR', priceMinor: 5000, description: null },
      { ticketOptionId: 'opt-1', priceTypeId: 'child', currency: 'EUR', priceMinor: 2500, description: 'Under 12' },
    ]);

    const s = await getIntegration(partnerId, getDb());
    expect(s.feedLastError).toBeNull();
    expect(s.feedNextRunAt!.getTime() - s.feedLastRunAt!.getTime()).toBe(15 * 60_000);

    // Pulling the same feed again changes nothing and creates no duplicate.
    expect(await pulled(partnerId)).toMatchObject({ created: 0, updated: 1, refused: [] });
    expect(await getEvent(partnerId, 'evt-1', getDb())).toEqual(event);
    expect(await combinationsOf(partnerId, 'show-1')).toHaveLength(2);
  });

  it('reschedules a show whose date changed and cancels one whose status became cancelled, invalidating its tickets', async () => {
    const partnerId = await feedPartner();
    fake.feed = { externalReferenceId: 'evt-1', title: 'Tour', shows: [feedShow('S1'), feedShow('S2')] };
    await pulled(partnerId);
    const sync = await syncTickets(
      partnerId,
      [
        {
          externalReferenceEventId: 'evt-1',
          showId: 'S2',
          buyer: 'fan@example.com',
          ticketId: 'T-1',
          ticketAccess: { type: 'URL', locator: 'https://qr.example/T-1.png' },
          ticketOptionId: 'S2-GA',
        },
      ],
      getDb(),
    );
    expect(sync).toMatchObject({ imported: 1, failed: 0 });

    fake.feed = {
      externalReferenceId: 'evt-1',
      shows: [
        feedShow('S1', { dates: { startsAt: '2030-07-08T21:00:00+02:00' } }),
        feedShow('S2', { status: 'Canceled' }),
      ],
    };
    expect(await pulled(partnerId)).toMatchObject({ created: 0, updated: 1, refused: [], error: null });

    const event = await getEvent(partnerId, 'evt-1', getDb());
    expect(event.title).toBe('Tour'); // not in this feed: the stored value stays
    expect(event.shows[0]).toMatchObject({
      showId: 'S1',
      date: '2030-07-08T21:00:00+02:00',
      showRescheduled: true,
      status: 'LIVE',
    });
    expect(event.shows[1]).toMatchObject({ showId: 'S2', status: 'CANCELLED', showRescheduled: false });
    const [ticket] = await getDb()
      .select({ status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.partnerId, partnerId), eq(tickets.ticketId, 'T-1')));
    expect(ticket.status).toBe('INVALIDATED');

    // Cancellation is irreversible: a feed still (or again) saying ON_SALE neither revives nor fails it.
    fake.feed = { externalReferenceId: 'evt-1', shows: [feedShow('S2')] };
    expect(await pulled(partnerId)).toMatchObject({ updated: 1, refused: [] });
    expect((await getEvent(partnerId, 'evt-1', getDb())).shows[1].status).toBe('CANCELLED');
  });

  it('records a feed with priceTypes but no combinations as the run error and changes nothing', async () => {
    const partnerId = await feedPartner();
    fake.feed = fakeFeedEvent();
    await pulled(partnerId);
    const before = await getEvent(partnerId, 'evt-1', getDb());

    const broken = fakeFeedEvent({ priceDetail: true });
    delete broken.shows[0].combinations;
    broken.shows[0].dates = { startsAt: '2031-01-01T20:00:00+01:00' };
    fake.feed = broken;
    const outcome = await pullFeed(partnerId, getDb());
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'invalid_answer' } });

    const s = await getIntegration(partnerId, getDb());
    expect(s.feedLastError).toContain('shows[0].combinations is required when priceTypes is present');
    expect(s.feedNextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await getEvent(partnerId, 'evt-1', getDb())).toEqual(before);
    expect(await combinationsOf(partnerId, 'show-1')).toEqual([]);
  });

  it('applies the other events when the catalogue refuses one, and names it in the run error', async () => {
    const partnerId = await feedPartner();
    const noCurrency = feedShow('B1', { ticketOptions: [{ ticketId: 'B1-GA', title: 'General', price: 10 }] });
    fake.feed = [
      { externalReferenceId: 'evt-a', shows: [feedShow('A1')] },
      { externalReferenceId: 'evt-b', shows: [noCurrency] },
      { externalReferenceId: 'evt-c', shows: [feedShow('C1')] },
      // A showId another event of the feed uses too: showIds are per event, so both have a show A1.
      { externalReferenceId: 'evt-d', shows: [feedShow('A1')] },
      { externalReferenceId: 'evt-e', shows: [feedShow('E1')] },
    ];

    const result = await pulled(partnerId);
    expect(result).toMatchObject({ events: 5, created: 4, updated: 0 });
    expect(result.refused.map((r) => [r.index, r.externalReferenceId, r.message])).toEqual([
      [1, 'evt-b', 'shows[0].ticketOptions[0].currency is required'],
    ]);
    expect(result.error).toBe('1 of 5 events refused: [1] evt-b: shows[0].ticketOptions[0].currency is required');
    expect((await getIntegration(partnerId, getDb())).feedLastError).toBe(result.error);

    for (const ref of ['evt-a', 'evt-c', 'evt-d', 'evt-e'])
      expect((await getEvent(partnerId, ref, getDb())).shows).toHaveLength(1);
    expect((await getEvent(partnerId, 'evt-d', getDb())).shows[0].showId).toBe('A1');
    await notFound(getEvent(partnerId, 'evt-b', getDb()));

    // Once the partner fixes its feed, the next run applies it and clears the error.
    fake.feed = [{ externalReferenceId: 'evt-b', shows: [feedShow('B1')] }];
    expect(await pulled(partnerId)).toMatchObject({ created: 1, error: null });
    expect((await getIntegration(partnerId, getDb())).feedLastError).toBeNull();
  });

  it('refuses a combination price the currency cannot hold, without storing the event half-applied', async () => {
    const partnerId = await feedPartner();
    const event = fakeFeedEvent({ priceDetail: true });
    (event.shows[0].combinations as { price: unknown }[])[1].price = '25.005';
    fake.feed = event;
    const result = await pulled(partnerId);
    expect(result.refused[0]).toMatchObject({
      index: 0,
      message: 'shows[0].combinations[1].price has more than 2 decimal places, which EUR does not allow',
    });
    await notFound(getEvent(partnerId, 'evt-1', getDb()));
  });

  it('stores a seat map from the feed sanitised, and refuses one that is not SVG by its field', async () => {
    const partnerId = await feedPartner();
    const hostile = '<svg viewBox="0 0 9 9" onload="alert(1)"><script>alert(2)</script><rect width="9"/></svg>';
    fake.feed = [
      { ...fakeFeedEvent({ externalReferenceId: 'evt-map' }), seating: { svgCode: hostile } },
      { ...fakeFeedEvent({ externalReferenceId: 'evt-nomap' }), seating: { svgCode: 'map.png' } },
    ];
    const result = await pulled(partnerId);
    expect(result.refused.map((r) => [r.externalReferenceId, r.message])).toEqual([
      ['evt-nomap', 'seating.svgCode must be an SVG document: one <svg> element'],
    ]);
    expect((await getEvent(partnerId, 'evt-map', getDb())).seating).toEqual({
      svgCode: '<svg viewBox="0 0 9 9"><rect width="9"></rect></svg>',
    });
  });

  it('keeps partners apart: the same externalReferenceId in B’s feed creates B’s own event', async () => {
    const a = await feedPartner();
    const b = await feedPartner();
    fake.feed = fakeFeedEvent({ priceDetail: true });
    await pulled(a);
    const aEvent = await getEvent(a, 'evt-1', getDb());

    const other = fakeFeedEvent();
    other.title = 'Partner B concert';
    other.shows[0].dates = { startsAt: '2030-09-09T19:00:00-03:00' };
    other.shows[0].status = 'CANCELLED';
    fake.feed = other;
    expect(await pulled(b)).toMatchObject({ created: 1, updated: 0, refused: [] });

    expect(await getEvent(b, 'evt-1', getDb())).toMatchObject({
      title: 'Partner B concert',
      shows: [{ showId: 'show-1', date: '2030-09-09T19:00:00-03:00', status: 'CANCELLED' }],
    });
    expect(await getEvent(a, 'evt-1', getDb())).toEqual(aEvent);
    expect(await combinationsOf(a, 'show-1')).toHaveLength(2);
    expect(await combinationsOf(b, 'show-1')).toEqual([]);
  });
});

describe('dashboard "Pull now"', () => {
  const staff = { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' as const };
  const caller = createCallerFactory(partnersRouter)({ staff });

  it('applies the feed and answers what it did; a partner failure is a result, not an error', async () => {
    const partnerId = await feedPartner();
    fake.feed = fakeFeedEvent();
    expect(await caller.integration.pullFeedNow({ partnerId })).toMatchObject({
      ok: true,
      result: { events: 1, created: 1, updated: 0, refused: [], error: null },
    });
    expect((await getEvent(partnerId, 'evt-1', getDb())).shows).toHaveLength(1);

    fake.misbehaviour = { kind: 'badJson' };
    expect(await caller.integration.pullFeedNow({ partnerId })).toMatchObject({
      ok: false,
      error: { reason: 'invalid_json' },
    });
  });
});

describe('describeRefusals', () => {
  it('is null for a clean run and lists at most five refusals', () => {
    expect(describeRefusals({ events: 2, created: 2, updated: 0, refused: [] })).toBeNull();
    const refused = Array.from({ length: 7 }, (_, i) => ({
      index: i,
      externalReferenceId: `e${i}`,
      message: 'title must not be empty',
      details: [],
    }));
    const text = describeRefusals({ events: 7, created: 0, updated: 0, refused })!;
    expect(text.startsWith('7 of 7 events refused: [0] e0: title must not be empty; ')).toBe(true);
    expect(text.endsWith('[4] e4: title must not be empty; … and 2 more')).toBe(true);
  });
});

describe('feed jobs', () => {
  const sentPartnerIds = () => jobs.sent.map((job) => (job.input as { partnerId: string }).partnerId);

  it('claims only due partners, moves their next run ahead, and a second sweep right after claims nothing', async () => {
    const due = await feedPartner();
    const notDue = await feedPartner();
    const noFeed = await feedPartner(null);
    const later = new Date(Date.now() + 3_600_000);
    await getDb()
      .update(partnerIntegrations)
      .set({ feedNextRunAt: later })
      .where(eq(partnerIntegrations.partnerId, notDue));

    const first = await pullDueFeedsJob.run({}, ctx);
    expect(first).toMatchObject({ claimed: expect.any(Number) });
    expect(sentPartnerIds()).toContain(due);
    expect(sentPartnerIds()).not.toContain(notDue);
    expect(sentPartnerIds()).not.toContain(noFeed);
    expect(jobs.sent).toContainEqual({ name: pullFeedJob.id, input: { partnerId: due }, opts: { singletonKey: due } });

    const claimed = await getIntegration(due, getDb());
    expect(claimed.feedNextRunAt!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect((await getIntegration(notDue, getDb())).feedNextRunAt).toEqual(later);
    expect((await getIntegration(noFeed, getDb())).feedNextRunAt).toBeNull();

    jobs.sent.length = 0;
    await pullDueFeedsJob.run({}, ctx);
    expect(sentPartnerIds()).not.toContain(due);

    // The queued pull, run as the worker would: it applies the feed.
    fake.feed = fakeFeedEvent();
    expect(await pullFeedJob.run({ partnerId: due }, ctx)).toMatchObject({ ok: true, created: 1 });
    expect((await getEvent(due, 'evt-1', getDb())).shows).toHaveLength(1);
    expect(fake.requestsTo('/feed')).toHaveLength(1);
  });

  it('lets only one of two simultaneous sweeps claim a due partner', async () => {
    const partnerId = await feedPartner();
    const [one, two] = await Promise.all([claimDueFeeds(getDb()), claimDueFeeds(getDb())]);
    expect([...one, ...two].filter((id) => id === partnerId)).toEqual([partnerId]);
  });

  it('records a failing partner server and schedules the next run without failing the job', async () => {
    const partnerId = await feedPartner();
    fake.misbehaviour = { kind: 'status', status: 503 };
    const res = await pullFeedJob.run({ partnerId }, ctx);
    expect(res).toEqual({ partnerId, ok: false, error: "The partner's event feed answered HTTP 503" });
    const s = await getIntegration(partnerId, getDb());
    expect(s.feedLastError).toBe("The partner's event feed answered HTTP 503");
    expect(s.feedNextRunAt!.getTime() - s.feedLastRunAt!.getTime()).toBe(15 * 60_000);
  });

  it('gives a claim back when its pull cannot be queued, so the next sweep retries it', async () => {
    const partnerId = await feedPartner();
    jobs.restore();
    jobs = recordJobs({ fail: (job) => (job.input as { partnerId: string }).partnerId === partnerId });
    await pullDueFeedsJob.run({}, ctx);
    expect((await getIntegration(partnerId, getDb())).feedNextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());

    jobs.restore();
    jobs = recordJobs();
    await pullDueFeedsJob.run({}, ctx);
    expect(sentPartnerIds()).toContain(partnerId);
  });

  it('has nothing to pull or record for a partner without a feed URL', async () => {
    const partnerId = await feedPartner(null);
    const outcome = await pullFeed(partnerId, getDb());
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'not_configured' } });
    expect(await getIntegration(partnerId, getDb())).toMatchObject({ feedLastRunAt: null, feedLastError: null });
  });

  it('skips a partner deleted after it was claimed', async () => {
    expect(await pullFeedJob.run({ partnerId: 'prt_missing' }, ctx)).toEqual({
      partnerId: 'prt_missing',
      skipped: expect.any(String),
    });
  });
});
