import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connects, freePort } from '@/server/testing/ports';

/**
 * The servers the HTTP benches talk to, each a child process in its own process group: the built app
 * (`npm start`) and the bare baseline (bare-server.ts). Both are stopped by `stopServers()` (the
 * whole group, so no Next.js worker outlives the bench) and, as a last resort, when the bench exits.
 */

const root = process.cwd();
/** The bench's own build directory, so it never clashes with the e2e or a developer's `.next`. */
const DIST_DIR = process.env.BENCH_DIST_DIR || '.next-bench';
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3223);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3233);

const children = new Set<ChildProcess>();

/** One line describing where the figures come from; printed before every bench line. */
export function machine(): string {
  const cpus = os.cpus();
  const load = os.loadavg().map((l) => l.toFixed(2));
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), node ${process.version}, ${os.platform()} ${os.arch()}, load ${load.join(' ')}`;
}

/** Newest modification time of the files a build is made from (tests, e2e and the bench excluded). */
function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    const full = path.join(dir, name);
    const rel = path.relative(root, full);
    if (entry.isDirectory()) {
      if (name.startsWith('.') || name === 'node_modules' || name === 'e2e' || name === 'test-results') continue;
      if (name === 'playwright-report' || rel === path.join('server', 'bench') || rel === path.join('db', 'migrations'))
        continue;
      newest = Math.max(newest, newestSourceMtime(full));
    } else if (/\.(tsx?|mjs|json|css)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

let building: Promise<void> | undefined;

/** `next build` into DIST_DIR when it has no build yet or a source file is newer than its build; once per run. */
function ensureBuild(): Promise<void> {
  building ??= build();
  return building;
}

async function build(): Promise<void> {
  const buildId = path.join(root, DIST_DIR, 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (builtAt && builtAt >= newestSourceMtime(root)) return;
  console.log(`# building the app into ${DIST_DIR} (${builtAt ? 'sources changed' : 'no build yet'}) …`);
  const t0 = Date.now();
  // Its own process group like the servers, so an interrupted bench stops the build too.
  const child = spawn(process.execPath, [nextBin(), 'build'], {
    cwd: root,
    env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NODE_ENV: 'production' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  children.delete(child);
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`);
  console.log(`# built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

function nextBin(): string {
  return path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
}

/** Starts a child in its own process group and waits until `readyUrl` answers 200. */
async function startChild(label: string, args: string[], env: NodeJS.ProcessEnv, port: number, readyUrl: string) {
  if (await connects(port)) throw new Error(`${label}: port ${port} is already in use`);
  const child = spawn(process.execPath, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  // Kept for the error message when it fails to come up; otherwise the output is dropped.
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
    children.delete(child);
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`${label} exited with ${exited} before it was ready:\n${output}`);
    try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${label} not ready after 180 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Environment for a child: the bench's, minus anything that would switch the app to Inngest. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_DEV']) delete env[k];
  return env;
}

const apps = new Map<number, Promise<string>>();

/**
 * The built app as `npm start` runs it (server/start.ts) on the bench's database, with the local job
 * provider working jobs (it imports the ticket batches). Started once per port and bench run; answers its
 * base URL. `extra` adds to its environment (onsale-peak's instances behind the edge: EDGE_CACHE, …).
 */
export function startApp(databaseUrl: string, port = APP_PORT, extra: Record<string, string> = {}): Promise<string> {
  let started = apps.get(port);
  if (!started) {
    started = (async () => {
      await ensureBuild();
      const base = `http://127.0.0.1:${port}`;
      // BENCH_CPU_PROF=<dir>: the app writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
      const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
      await startChild(
        `npm start (${port})`,
        [...prof, '--import', 'tsx', 'server/start.ts', '-p', String(port), '-H', '127.0.0.1'],
        childEnv({
          NODE_ENV: 'production',
          NEXT_DIST_DIR: DIST_DIR,
          DATABASE_URL: databaseUrl,
          DEMO_PARTNER: '0',
          JOBS_WORKER: '1',
          LOG_LEVEL: 'warn',
          PUBLIC_BASE_URL: base,
          NEXTAUTH_URL: base,
          ...extra,
        }),
        port,
        `${base}/healthz`,
      );
      return base;
    })();
    apps.set(port, started);
  }
  return started;
}

/** The bare servers started, by port: the ticket benches' (BARE_PORT) and onsale-peak's reads (the next one). */
const bare = new Map<number, Promise<string>>();

/**
 * The bare baseline server (bare-server.ts) on the bench's database: the ticket benches' insert server,
 * or with `statements` in its config the buy page's reads (on its own port, beside the other).
 */
export function startBare(databaseUrl: string, config: Record<string, unknown>): Promise<string> {
  const port = config.statements ? BARE_PORT + 1 : BARE_PORT;
  let started = bare.get(port);
  if (!started) {
    started = (async () => {
      const base = `http://127.0.0.1:${port}`;
      await startChild(
        'bare server',
        ['--import', 'tsx', path.join(root, 'server', 'bench', 'bare-server.ts')],
        childEnv({ DATABASE_URL: databaseUrl, BARE_PORT: String(port), BARE_CONFIG: JSON.stringify(config) }),
        port,
        `${base}/ready`,
      );
      return base;
    })();
    bare.set(port, started);
  }
  return started;
}

/** The webhook receiver (receiver-server.ts) in its own process; answers its base URL. */
export async function startReceiver(): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await startChild(
    'webhook receiver',
    ['--import', 'tsx', path.join(root, 'server', 'bench', 'receiver-server.ts')],
    childEnv({ RECEIVER_PORT: String(port) }),
    port,
    `${base}/ready`,
  );
  return base;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to each server's process group, SIGKILL to what is left after 10 s. */
export async function stopServers(): Promise<void> {
  const waits = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          // Next.js may leave workers in the group behind its main process.
          killGroup(child, 'SIGKILL');
          resolve();
        });
        killGroup(child, 'SIGTERM');
      }),
  );
  await Promise.all(waits);
  apps.clear();
  bare.clear();
}

// A bench that crashes still takes its servers with it (run.ts stops them on a signal).
process.once('exit', () => {
  for (const child of children) killGroup(child, 'SIGKILL');
});
