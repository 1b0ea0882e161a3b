/**
 * `npm run bench [-- <case>…] [-- --check]`: each case measures the project beside a raw baseline in the same run
 * and prints one line `bench <case>: <value> <unit> vs baseline <value> <unit> ratio <r>`
 * (r = project/baseline for rates, baseline/project for times: bigger is better, 1.0 = par), after a
 * `# <case>: …` line giving the sizes and the machine. The ticket cases start the built app (`next
 * start`, built into .next-bench when absent or stale) and a bare baseline server; both are stopped here.
 * `--check` then compares each ratio with its floor in server/bench/floors.json and exits 1 below one.
 */
import { resetEnvCache } from '@/server/env';
import { createScratchDatabase } from '@/server/testing/scratch-db';
import { checkFloors, readFloors } from './floors';
import { stopServers } from './servers';

process.env.LOG_LEVEL ??= 'error';
process.env.ALLOW_PRIVATE_PARTNER_URLS = '1'; // the receivers are on loopback
resetEnvCache();

export interface BenchResult {
  value: number;
  unit: string;
  baseline: number;
  kind: 'rate' | 'time';
}

const cases: Record<string, () => Promise<{ run: () => Promise<BenchResult> }>> = {
  'webhook-delivery': () => import('./webhook-delivery'),
  'ticket-import': () => import('./ticket-import'),
  'sync-tickets': () => import('./sync-tickets'),
  'buy-intention': () => import('./buy-intention'),
  'listed-tickets': () => import('./listed-tickets'),
  'buy-page': () => import('./buy-page'),
  'access-layer-sell': () => import('./access-layer-sell'),
  'leads-bulk': () => import('./leads-bulk'),
  'ops-overview': () => import('./ops-overview'),
  'onsale-peak': () => import('./onsale-peak'),
  'widget-rush': () => import('./widget-rush'),
};

let dropDb: (() => Promise<void>) | undefined;
let interrupted = false;

/** Stops the servers, closes the pool and drops the scratch database; once, whoever asks first. */
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopServers();
    const { closeDb } = await import('@/db');
    await closeDb();
    await dropDb?.();
  })();
  return cleaning;
}

// An interrupted bench still stops its servers and its database.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    interrupted = true;
    console.error(`bench: ${sig}, cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const check = process.argv.includes('--check');
  // Read first: a broken floors file fails before minutes of measuring.
  const floors = check ? readFloors() : {};
  const ratios: Record<string, number> = {};
  const unknown = wanted.filter((w) => !cases[w]);
  if (unknown.length) {
    console.error(`unknown bench case(s): ${unknown.join(', ')}; known: ${Object.keys(cases).join(', ')}`);
    process.exit(2);
  }
  const db = await createScratchDatabase('bench');
  dropDb = db.drop;
  process.env.DATABASE_URL = db.url;
  resetEnvCache();
  try {
    for (const name of wanted.length ? wanted : Object.keys(cases)) {
      const { run } = await cases[name]();
      const r = await run();
      if (interrupted) break;
      const ratio = r.kind === 'rate' ? r.value / r.baseline : r.baseline / r.value;
      ratios[name] = ratio;
      const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
      console.log(
        `bench ${name}: ${fmt(r.value)} ${r.unit} vs baseline ${fmt(r.baseline)} ${r.unit} ratio ${ratio.toFixed(2)}`,
      );
    }
  } finally {
    await cleanup();
  }
  if (check && !interrupted) {
    const verdicts = checkFloors(ratios, floors);
    for (const v of verdicts) console.log(v.line);
    process.exit(verdicts.every((v) => v.ok) ? 0 : 1);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
