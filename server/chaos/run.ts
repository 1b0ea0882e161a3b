/**
 * `npm run chaos`: faults played one after the other against two instances of the built app on one
 * PostgreSQL, under traffic, each printing one line of figures (docs/operations.md, "Faults, played"):
 * terminate (backends killed), outage (PostgreSQL stopped 5 s), partner-down (verification failing while a
 * fan pays), kill (SIGKILL to an instance mid-rush and mid-delivery), stop (SIGTERM to an instance). Exits 1
 * when an invariant broke (a 500, a lost write, a double sale, a fan not sent back), naming it. Not part of
 * CI: a few minutes, and a build into .next-chaos when sources changed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { closeDb } from '@/db';
import { resetEnvCache } from '@/server/env';
import { machine } from '@/server/bench/servers';
import { freePort } from '@/server/testing/ports';
import { AppInstance, ensureBuild, type LogLine } from './apps';
import { doubleSales, durability, importedBatches } from './checks';
import type { Chaos, FaultResult } from './context';
import { ChaosDatabase } from './database';
import { outage, terminate } from './faults-db';
import { kill, stop } from './faults-app';
import { partnerDown } from './faults-partner';
import { WebhookReceiver } from './receiver';
import { secs, sleep } from './report';
import { createMarket, setUp } from './setup';
import { type Answer, Traffic } from './traffic';

/** Listings the traffic's buyers ask for (and one more for the kill's rush). */
const LISTINGS = 120;

const started = Date.now();
let cleanup: (() => Promise<void>) | undefined;
/** The traffic's answers, for CHAOS_ANSWERS however the run ends. */
const answered: { list: Answer[] } = { list: [] };
/** Set when the run ends: a crashed instance is not started again then. */
let closing = false;

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`chaos: ${sig}, cleaning up`);
    void (cleanup?.() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

/** The database, the receiver, the two instances and the partners' markets, ready for traffic. */
async function prepare(): Promise<Chaos> {
  console.log(`# chaos: ${machine()}`);
  console.log(`# ${await ensureBuild()}`);
  const db = await ChaosDatabase.start();
  const receiver = await new WebhookReceiver().start();
  const logs: LogLine[] = [];
  const apps: AppInstance[] = [];
  // A run that dies still takes its instances with it.
  process.once('exit', () => apps.forEach((a) => a.kill()));
  cleanup = async () => {
    closing = true;
    await Promise.all(apps.map((a) => a.stop().catch(() => undefined)));
    // CHAOS_LOGS=<file>: every line the instances wrote, as JSON lines (`instance`, `at`, then the line's fields).
    if (process.env.CHAOS_LOGS) {
      const lines = logs.map((l) =>
        JSON.stringify({ instance: 'AB'[l.instance], at: new Date(l.at).toISOString(), ...l.fields, msg: l.msg }),
      );
      fs.writeFileSync(process.env.CHAOS_LOGS, lines.join('\n') + '\n');
    }
    // CHAOS_ANSWERS=<file>: every answer the traffic got (route, instance, sent and received times, status).
    if (process.env.CHAOS_ANSWERS) fs.writeFileSync(process.env.CHAOS_ANSWERS, JSON.stringify(answered.list));
    await receiver.close().catch(() => undefined);
    await closeDb().catch(() => undefined);
    await db.remove();
  };
  process.env.DATABASE_URL = db.url;
  process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
  resetEnvCache();
  const secret = randomBytes(24).toString('hex');
  const env = {
    DATABASE_URL: db.url,
    DEMO_PARTNER: '0',
    JOBS_WORKER: '1',
    LOG_LEVEL: 'info',
    TEST_HOOKS_SECRET: secret,
    ALLOW_PRIVATE_PARTNER_URLS: '1',
  };
  for (let i = 0; i < 2; i++) apps.push(new AppInstance(i, await freePort(), env, logs));
  const boot = await Promise.all(apps.map((a) => a.start()));
  console.log(
    `# PostgreSQL on :${db.port}; instances ${apps.map((a, i) => `${a.name} :${a.port} (${secs(boot[i])})`).join(', ')}`,
  );
  const base = apps[0].base;
  const market = await createMarket(base, secret, 'traffic', LISTINGS + 1);
  await setUp(base, secret, 'webhook-endpoint', { partnerId: market.partnerId, url: receiver.url });
  const rushListing = market.listings.pop()!;
  const payMarket = await createMarket(base, secret, 'payments', 1);
  const traffic = new Traffic(
    apps.map((a) => a.base),
    market,
  );
  answered.list = traffic.answers;
  const c: Chaos = {
    db,
    apps,
    traffic,
    market,
    payMarket,
    rushListing,
    receiver,
    secret,
    logs,
    failures: [],
    fault: 'set-up',
  };
  for (const app of apps) supervise(c, app);
  return c;
}

/**
 * An instance that exits on its own (an uncaught exception, an unhandled rejection) is a broken invariant,
 * named with the error line it left; it is started again, as a process manager would, so the run goes on.
 */
function supervise(c: Chaos, app: AppInstance): void {
  app.onFatal = (line) => {
    const frames = String(line.fields.stack ?? '')
      .split('\n')
      .slice(1, 5)
      .join(' ')
      .replace(/\s+/g, ' ');
    c.failures.push(
      `${c.fault}: instance ${app.name} stopped itself: "${line.msg}" ${String(line.fields.error ?? '')} ·${frames}`,
    );
  };
  app.onCrash = () =>
    void (async () => {
      for (let attempt = 1; attempt <= 20 && !closing; attempt++) {
        const ms = await app.start().catch(() => null);
        if (ms !== null) return console.log(`#   instance ${app.name} restarted after its crash (up in ${secs(ms)})`);
        await sleep(2000);
      }
    })();
}

/** Waits (up to 90 s) until every instance serves: one restarted after a crash comes back before the next fault. */
async function everyInstanceServing(c: Chaos): Promise<void> {
  const t0 = Date.now();
  while (c.apps.some((a) => !a.isServing) && Date.now() - t0 < 90_000) await sleep(200);
  if (Date.now() - t0 > 500) console.log(`#   waited ${secs(Date.now() - t0)} for every instance to serve again`);
}

function print(r: FaultResult): void {
  console.log(`${r.name.padEnd(13)}${r.line}`);
  for (const d of r.details) console.log(`#   ${d}`);
}

/** After the faults: every write answered 2xx over the whole run is there, imported, and nothing was sold twice. */
async function finalChecks(c: Chaos): Promise<string> {
  const sql = c.db.sql();
  const all = await durability(sql, c.traffic.writes);
  c.failures.push(...all.missing.map((m) => `lost write: ${m} was answered 2xx but is not in the database`));
  const imported = await importedBatches(sql, c.traffic.writes, 90_000);
  c.failures.push(
    ...imported.missing.slice(0, 20).map((k) => `lost write: ticket ${k} of an accepted batch was never imported`),
  );
  if (imported.unfinished) c.failures.push(`${imported.unfinished} accepted batches still unfinished after 90 s`);
  const doubles = await doubleSales(sql, [c.market.partnerId, c.payMarket.partnerId], c.traffic.writes);
  c.failures.push(...doubles.map((d) => `double sale: ${d}`));
  const w = c.traffic.writes;
  return (
    `${c.traffic.answers.length} answers · ${all.total - all.missing.length}/${all.total} writes durable ` +
    `(${w.batches.length} batches, ${w.synced.length} synced tickets, ${w.holds.length} holds) · ` +
    `${imported.tickets - imported.missing.length}/${imported.tickets} batch tickets imported · ${doubles.length} sold twice`
  );
}

const FAULTS: Record<string, (c: Chaos) => Promise<FaultResult>> = {
  terminate,
  outage,
  'partner-down': partnerDown,
  kill,
  stop,
};

async function main(): Promise<number> {
  // `npm run chaos -- outage kill`: those faults alone, in their usual order.
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !FAULTS[w]);
  if (unknown.length)
    throw new Error(`unknown fault(s): ${unknown.join(', ')}; known: ${Object.keys(FAULTS).join(', ')}`);
  const c = await prepare();
  c.traffic.start();
  await sleep(3000);
  for (const [name, fault] of Object.entries(FAULTS))
    if (!wanted.length || wanted.includes(name)) {
      await everyInstanceServing(c);
      c.fault = name;
      print(await fault(c));
    }
  await c.traffic.stop();
  console.log(`${'invariants'.padEnd(13)}${await finalChecks(c)}`);
  for (const f of c.failures) console.log(`FAILED ${f}`);
  console.log(
    `# chaos: ${c.failures.length ? `${c.failures.length} invariant(s) broken` : 'every invariant held'} in ${secs(Date.now() - started)}`,
  );
  return c.failures.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanup?.();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error(err);
    await cleanup?.().catch(() => undefined);
    process.exit(1);
  });
