import { durability } from './checks';
import type { Chaos, FaultResult } from './context';
import type { AppInstance } from './apps';
import { describeErrors, eachInstance, firstOk, is2xx, logSummary, secs, serverErrors, sleep, tally } from './report';
import { type Answer, request } from './traffic';

/** Terminations played, a second apart under traffic. */
const TERMINATIONS = 3;
/** How long PostgreSQL stays down in the outage. */
const OUTAGE_MS = 5000;

/**
 * `terminate`: every backend of the database but the run's own is terminated (the app's pools, the job
 * queue's connections), three times a second apart. No answer may be a 500; the figure is how soon each
 * instance answers 2xx again after each termination.
 */
export async function terminate(c: Chaos): Promise<FaultResult> {
  const from = Date.now();
  const rounds: { at: number; backends: number }[] = [];
  for (let i = 0; i < TERMINATIONS; i++) {
    await sleep(1000);
    const at = Date.now();
    rounds.push({ at, backends: await c.db.terminateBackends() });
  }
  await sleep(2000);
  const to = Date.now();
  const answers = c.traffic.between(from, to);
  /** An instance's slowest return to 2xx over the terminations; null when it answered none after one. */
  const recovery = (instance: number) => {
    const each = rounds.map((r) => firstOk(c.traffic.answers, instance, r.at));
    return each.includes(null) ? null : Math.max(...(each as number[]));
  };
  c.failures.push(...describeErrors('terminate', serverErrors(answers), c.logs));
  for (const app of c.apps) {
    if (recovery(app.index) === null && !app.crashes.some((t) => t >= from)) {
      c.failures.push(`terminate: instance ${app.name} answered no 2xx after a termination`);
    }
  }
  return {
    name: 'terminate',
    line:
      `${TERMINATIONS} × pg_terminate_backend (${rounds.map((r) => r.backends).join('+')} backends) · ` +
      `${answers.length} answers: ${tally(answers)} · 2xx again within ${eachInstance(c.apps, (a) => recovery(a.index), from)}`,
    details: [`logs: ${logSummary(c.logs, from, to)}`],
  };
}

/**
 * `outage`: PostgreSQL stopped (a fast shutdown) for five seconds under traffic, then started again on the
 * same port and data. During it every answer must be a 503 with Retry-After (the envelope on /v1, the
 * branded page for fans), never a 500; the figure is how soon each instance answers a partner's read 2xx once
 * it is back (asked every 100 ms, apart from the traffic), and every write answered 2xx around it must be in
 * the database.
 */
export async function outage(c: Chaos): Promise<FaultResult> {
  const from = Date.now();
  await sleep(1000);
  await c.db.stop();
  const downAt = Date.now();
  await sleep(OUTAGE_MS / 2);
  // Asked halfway, answered within its own 2 s ping: before PostgreSQL is back.
  const asked = Promise.all(c.apps.map((app) => app.health().catch(() => null)));
  await sleep(OUTAGE_MS / 2);
  await c.db.restart();
  const upAt = Date.now();
  const health = await asked;
  const back = await Promise.all(c.apps.map((app) => firstReadAfter(c, app, upAt, 45_000)));
  await sleep(1000);
  const to = Date.now();
  // Every request sent while PostgreSQL was down, whenever it was answered.
  const during = c.traffic.answers.filter((a) => a.sentAt >= downAt && a.sentAt < upAt);
  const pages = during.filter((a) => a.route === 'page' && a.status === 503);
  const answered503 = during.filter((a) => a.status === 503);
  const durable = await durability(c.db.sql(), c.traffic.writes, from, to);
  c.failures.push(...describeErrors('outage', serverErrors(c.traffic.between(from, to)), c.logs));
  c.failures.push(
    ...durable.missing.map((m) => `outage: lost write: ${m} was answered 2xx but is not in the database`),
  );
  for (const app of c.apps) {
    if (back[app.index] === null)
      c.failures.push(`outage: instance ${app.name} answered no 2xx within 45 s of PostgreSQL up`);
  }
  return {
    name: 'outage',
    line:
      `${secs(upAt - downAt)} down · ${during.length} answers: ${tally(during)} · ` +
      `Retry-After ${answered503.filter((a) => a.retryAfter).length}/${answered503.length}, ` +
      `fan pages branded ${pages.filter((a) => a.branded).length}/${pages.length} · ` +
      `2xx again after PostgreSQL up: ${eachInstance(c.apps, (a) => back[a.index], from)} · ` +
      `${durable.total - durable.missing.length}/${durable.total} writes durable`,
    details: [
      `outage gate reopened ("database reachable again") after PostgreSQL up: ${eachInstance(c.apps, (a) => reopened(c, a, upAt), from)}`,
      `slowest answer to a request sent while down: ${slowest(during)}; in the 2 s after PostgreSQL up: ${slowest(c.traffic.answers.filter((a) => a.sentAt >= upAt && a.sentAt < upAt + 2000))}`,
      `/healthz while down: ${c.apps.map((a) => `${a.name} ${health[a.index] ?? 'refused'}`).join(', ')}`,
      `logs from the shutdown on: ${logSummary(c.logs, from, to)}`,
    ],
  };
}

/** Milliseconds from `since` to the instance's first 2xx to a partner's read sent after it; null past `limitMs`. */
async function firstReadAfter(c: Chaos, app: AppInstance, since: number, limitMs: number): Promise<number | null> {
  const path = `/v1/marketplace/items/events/${c.market.ref}/listedTickets`;
  while (Date.now() - since < limitMs) {
    const { answer } = await request(app.base, app.index, 'probe', path, { headers: { authorization: c.market.key } });
    if (is2xx(answer)) return answer.at - since;
    await sleep(100);
  }
  return null;
}

/** Milliseconds from `since` to the instance's `database reachable again` line; null when it wrote none. */
function reopened(c: Chaos, app: AppInstance, since: number): number | null {
  const line = c.logs.find((l) => l.instance === app.index && l.at >= since && l.msg === 'database reachable again');
  return line ? line.at - since : null;
}

/** `14.7 s (page on B)`: the longest a request of `answers` waited for its answer. */
function slowest(answers: Answer[]): string {
  const worst = answers.reduce<Answer | null>((w, a) => (!w || a.at - a.sentAt > w.at - w.sentAt ? a : w), null);
  return worst ? `${secs(worst.at - worst.sentAt)} (${worst.route} on ${'AB'[worst.instance]})` : 'none';
}
