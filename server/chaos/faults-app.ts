import type { AppInstance } from './apps';
import type { Chaos, FaultResult } from './context';
import { connectionHolders } from './receiver';
import { describeErrors, is2xx, logSummary, secs, serverErrors, sleep, tally } from './report';
import { setUp } from './setup';
import { type Answer, request } from './traffic';

/** Webhook messages sent before the kill, and how long the receiver keeps each delivery waiting then. */
const MESSAGES = 30;
const SLOW_ANSWER_MS = 8000;
/** Buyers racing for one listing, half on each instance. */
const RUSH = 24;
/** How long before the SIGTERM a request counts as received by the instance (loopback, an idle machine: ~1 ms). */
const RECEIVED_MS = 30;

/**
 * `kill`: SIGKILL to the instance that holds webhook deliveries in flight (the receiver keeps them
 * waiting), in the middle of a rush of buyers for one listing on both instances. One buyer at most holds
 * the listing; the messages the dead instance held are delivered by the survivor once their lease ends
 * (30 s); then the killed instance starts again.
 */
export async function kill(c: Chaos): Promise<FaultResult> {
  const from = Date.now();
  c.receiver.delayMs = SLOW_ANSWER_MS;
  await Promise.all(
    Array.from({ length: MESSAGES }, (_, i) =>
      setUp(c.apps[i % 2].base, c.secret, 'webhook-test-message', { partnerId: c.market.partnerId }),
    ),
  );
  const victim = await holderOfDeliveries(c);
  const survivor = c.apps.find((a) => a !== victim)!;
  const rush = Promise.all(
    Array.from({ length: RUSH }, (_, i) =>
      request(c.apps[i % 2].base, i % 2, 'buy', '/v1/marketplace/buyingflow/buyIntention', {
        method: 'POST',
        headers: { authorization: c.market.key, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [c.rushListing], user: `rush${i}@chaos.test` }),
      }),
    ),
  );
  await sleep(15);
  const killedAt = Date.now();
  victim.kill();
  c.receiver.delayMs = 0;
  const answers = (await rush).map((s) => s.answer);
  const holders = await holdersOf(c, c.rushListing);
  const winners = answers.filter(is2xx).length;
  if (holders > 1 || winners > 1) {
    c.failures.push(
      `kill: listing ${c.rushListing} held by ${holders} buyers in the database, ${winners} answered 200`,
    );
  }
  await victim.exit();
  const delivered = await deliveredAfter(c, killedAt, 75_000);
  const held = [...c.receiver.messages.values()].filter((m) => m.abortedAt !== undefined && m.abortedAt >= killedAt);
  const lastHeld = Math.max(0, ...held.map((m) => (m.deliveredAt ?? Infinity) - killedAt));
  if (delivered.pending > 0)
    c.failures.push(`kill: ${delivered.pending} webhook messages still pending 75 s after the kill`);
  const restartMs = await victim.start();
  c.failures.push(...describeErrors('kill', serverErrors(c.traffic.between(from)), c.logs));
  return {
    name: 'kill',
    line:
      `${victim.name} killed holding ${held.length} deliveries · rush of ${RUSH} buyers on one listing: ${tally(answers)} · ` +
      `${holders} holder in the database · ${held.filter((m) => m.deliveredAt).length}/${held.length} held delivered by ${survivor.name}, ` +
      `last ${secs(Number.isFinite(lastHeld) ? lastHeld : null)} after the kill · ${delivered.delivered}/${delivered.total} messages delivered · ` +
      `${victim.name} back in ${secs(restartMs)}`,
    details: [
      `traffic from the kill until ${victim.name} was back: ${tally(c.traffic.between(killedAt))}`,
      `logs: ${logSummary(c.logs, killedAt, Date.now())}`,
    ],
  };
}

/** The instance with the most deliveries in flight to the receiver (waits until some are), else the second. */
async function holderOfDeliveries(c: Chaos): Promise<AppInstance> {
  const deadline = Date.now() + 15_000;
  while (c.receiver.inFlightPorts().length < MESSAGES / 3 && Date.now() < deadline) await sleep(50);
  await sleep(300);
  const counts = connectionHolders(
    c.receiver.inFlightPorts(),
    c.apps.map((a) => a.pid ?? 0),
  );
  const ranked = [...c.apps].sort((a, b) => (counts.get(b.pid ?? 0) ?? 0) - (counts.get(a.pid ?? 0) ?? 0));
  return (counts.get(ranked[0].pid ?? 0) ?? 0) > 0 ? ranked[0] : c.apps[1];
}

async function holdersOf(c: Chaos, listingId: string): Promise<number> {
  const [row] = await c.db.sql()<{ n: number }[]>`
    select count(*)::int as n from buy_intentions
    where ${listingId} = any(listing_ids) and status in ('PENDING', 'COMPLETED')`;
  return row.n;
}

/** Waits until the traffic partner's messages are all delivered (at most `limitMs`); the counts then. */
async function deliveredAfter(c: Chaos, since: number, limitMs: number) {
  for (;;) {
    const [row] = await c.db.sql()<{ total: number; pending: number }[]>`
      select count(*)::int as total, (count(*) filter (where status = 'pending'))::int as pending
      from webhook_messages where partner_id = ${c.market.partnerId}`;
    if (row.pending === 0 || Date.now() - since > limitMs) return { ...row, delivered: row.total - row.pending };
    await sleep(250);
  }
}

/**
 * `stop`: SIGTERM to one instance under traffic, with a few requests sent to it just before (fans' own buy
 * pages, which it renders, and ticket batches). Its /healthz must stop answering 200 at once (503, or the
 * connection refused once it closed its port), every request it had received must be answered, and whatever
 * it is asked afterwards is answered, refused or a 503 with Retry-After, never a 500.
 */
export async function stop(c: Chaos): Promise<FaultResult> {
  const from = Date.now();
  const victim = c.apps[1];
  const extra = [1, 2, 3].map((i) =>
    request(victim.base, victim.index, 'page', `${c.market.pagePath}&sort=price_desc&page=${i}`, {
      headers: { accept: 'text/html', cookie: `chaos=${i}` },
    }),
  );
  // Long enough for the requests to reach it: a request still on its way when the port closes is refused, not lost.
  await sleep(RECEIVED_MS);
  const termAt = Date.now();
  victim.terminate();
  const health = await healthTurns(victim, termAt);
  const exit = await victim.exit();
  await sleep(1000);
  const mine = [...c.traffic.answers, ...(await Promise.all(extra)).map((s) => s.answer)].filter(
    (a) => a.instance === victim.index,
  );
  const inFlight = mine.filter((a) => a.sentAt <= termAt - RECEIVED_MS && a.at >= termAt);
  const after = mine.filter((a) => a.sentAt >= termAt);
  c.failures.push(...describeErrors('stop', serverErrors(c.traffic.between(from)), c.logs));
  const cut = inFlight.filter((a) => typeof a.status !== 'number');
  if (cut.length) {
    c.failures.push(
      `stop: ${cut.length} of ${inFlight.length} requests in flight at SIGTERM were not answered (${tally(cut)}); ` +
        `instance ${victim.name} exited ${exit.code ?? exit.signal} ${secs(exit.at - termAt)} after the signal`,
    );
  }
  const bad = after.filter((a) => !acceptableAfterStop(a));
  if (bad.length) c.failures.push(`stop: answers other than 2xx/4xx, refused or 503 + Retry-After: ${tally(bad)}`);
  const refused = after.filter((a) => a.status === 'refused' || a.status === 'reset').length;
  const answered = after.filter((a) => typeof a.status === 'number' && a.status < 500).length;
  return {
    name: 'stop',
    line:
      `/healthz ${health.what} ${secs(health.ms)} after SIGTERM · ${inFlight.length} in flight: ${tally(inFlight)} · ` +
      `${after.length} sent after: answered ${answered}, refused ${refused}, ` +
      `503 + Retry-After ${after.filter((a) => a.status === 503 && a.retryAfter).length} · ` +
      `exited ${exit.code ?? exit.signal} ${secs(exit.at - termAt)} after SIGTERM`,
    details: [`sent after SIGTERM: ${tally(after)}`, `logs: ${logSummary(c.logs, termAt - 100, Date.now())}`],
  };
}

/** From `since`, polls the instance's /healthz until it is not 200: what it said (503 or refused) and when. */
async function healthTurns(app: AppInstance, since: number): Promise<{ what: string; ms: number | null }> {
  while (Date.now() - since < 15_000) {
    const status = await app.health().catch((err: { cause?: { code?: string } }) => err.cause?.code ?? 'error');
    const words: Record<string, string> = { ECONNREFUSED: 'refused', ECONNRESET: 'reset' };
    if (status !== 200) return { what: words[status] ?? `answered ${status}`, ms: Date.now() - since };
    await sleep(20);
  }
  return { what: 'still 200', ms: null };
}

function acceptableAfterStop(a: Answer): boolean {
  if (a.status === 'refused' || a.status === 'reset') return true;
  if (a.status === 503) return a.retryAfter;
  return typeof a.status === 'number' && a.status < 500;
}
