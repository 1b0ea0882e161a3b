import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connects } from '@/server/testing/ports';

/**
 * The built app as `npm start` runs it (server/start.ts), each instance a child process in its own process
 * group, so that the run can SIGKILL one (the whole group), SIGTERM one (its main process, as a process
 * manager does) and start it again on the same port. Built into its own directory, like the benches'
 * (server/bench/servers.ts), when that has no build yet or a source file is newer.
 */

const root = process.cwd();
const DIST_DIR = process.env.CHAOS_DIST_DIR || '.next-chaos';

/** One JSON line an instance wrote (stdout or stderr), with when the run read it. */
export interface LogLine {
  at: number;
  instance: number;
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

/** Newest modification time of the files a build is made from (tests, e2e and the tools excluded). */
function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full);
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || ['node_modules', 'e2e', 'test-results', 'playwright-report'].includes(rel))
        continue;
      if (['server/bench', 'server/chaos', 'db/migrations'].includes(rel.split(path.sep).join('/'))) continue;
      newest = Math.max(newest, newestSourceMtime(full));
    } else if (/\.(tsx?|mjs|json|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

/** `next build` into DIST_DIR when it has no build or a source is newer; answers what it did. */
export async function ensureBuild(): Promise<string> {
  const buildId = path.join(root, DIST_DIR, 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (builtAt && builtAt >= newestSourceMtime(root)) return `build in ${DIST_DIR} is current`;
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (b: Buffer) => (output = (output + b.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`);
  return `built into ${DIST_DIR} in ${((Date.now() - t0) / 1000).toFixed(0)} s`;
}

export interface Exit {
  code: number | null;
  signal: string | null;
  at: number;
}

export class AppInstance {
  readonly base: string;
  private child: ChildProcess | undefined;
  private exited: Promise<Exit> | undefined;
  /** Set once it answered /healthz, cleared when the run stops or kills it: an exit then is a crash. */
  private serving = false;
  /** Told when the instance exits on its own while serving (the run restarts it, as a process manager would). */
  onCrash: ((exit: Exit) => void) | undefined;
  /** Told of the first line an instance writes when it stops itself (an uncaught exception, an unhandled rejection). */
  onFatal: ((line: LogLine) => void) | undefined;
  /** When it exited on its own while serving. */
  readonly crashes: number[] = [];
  private fatalSeen = false;

  constructor(
    /** 0 or 1: how the run's lines and figures name it (A, B). */
    readonly index: number,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logs: LogLine[],
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  get name(): string {
    return 'AB'[this.index] ?? String(this.index);
  }

  /** Whether it answered /healthz and was not stopped, killed or crashed since. */
  get isServing(): boolean {
    return this.serving;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the instance; resolves with the milliseconds until its /healthz answered 200. */
  async start(): Promise<number> {
    if (await connects(this.port)) throw new Error(`instance ${this.name}: port ${this.port} is already in use`);
    const t0 = Date.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/start.ts', '-p', String(this.port), '-H', '127.0.0.1'],
      { cwd: root, env: this.childEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.fatalSeen = false;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        const exit = { code, signal, at: Date.now() };
        const msg = `instance ${this.name} exited (${code ?? signal})`;
        this.logs.push({ at: exit.at, instance: this.index, level: 'exit', msg, fields: { msg } });
        resolve(exit);
        if (this.serving) {
          this.crashes.push(exit.at);
          this.onCrash?.(exit);
        }
        this.serving = false;
      }),
    );
    let tail = '';
    const read = (stream: NodeJS.ReadableStream) => {
      let partial = '';
      stream.on('data', (b: Buffer) => {
        const lines = (partial + b.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          tail = (tail + line + '\n').slice(-8000);
          this.note(line);
        }
      });
    };
    read(child.stdout);
    read(child.stderr);
    let gone: unknown;
    void this.exited.then((e) => (gone = e));
    for (;;) {
      if (gone) throw new Error(`instance ${this.name} exited before it was ready:\n${tail}`);
      if ((await this.health().catch(() => 0)) === 200) {
        this.serving = true;
        return Date.now() - t0;
      }
      if (Date.now() - t0 > 180_000) throw new Error(`instance ${this.name} not ready after 180 s:\n${tail}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** /healthz's status (a new connection each time); throws when it is refused. */
  async health(): Promise<number> {
    const res = await fetch(`${this.base}/healthz`, {
      headers: { connection: 'close' },
      signal: AbortSignal.timeout(3000),
    });
    await res.arrayBuffer();
    return res.status;
  }

  /** SIGKILL to the whole process group: the instance dies at once, mid-request. */
  kill(): void {
    this.serving = false;
    this.signalGroup('SIGKILL');
  }

  /** SIGTERM to the server's process, as a process manager sends it: a graceful stop. */
  terminate(): void {
    this.serving = false;
    if (this.child?.pid) process.kill(this.child.pid, 'SIGTERM');
  }

  /** When and how the process ended (what is left of its group is killed then). */
  async exit(): Promise<Exit> {
    const e = await this.exited!;
    this.signalGroup('SIGKILL');
    return e;
  }

  /** A graceful stop, then SIGKILL after 15 s; for the end of the run. */
  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.kill(), 15_000);
    this.terminate();
    await this.exit();
    clearTimeout(timer);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  /** The run's environment, minus anything that would switch the app to Inngest, plus the instance's own. */
  private childEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', NEXT_DIST_DIR: DIST_DIR, ...this.env };
    for (const k of ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_DEV', 'DATA_DIR']) delete env[k];
    return { ...env, PUBLIC_BASE_URL: this.base, NEXTAUTH_URL: this.base };
  }

  private note(line: string): void {
    if (!line.startsWith('{')) {
      if (line.trim()) this.logs.push({ at: Date.now(), instance: this.index, level: 'text', msg: line, fields: {} });
      return;
    }
    try {
      const fields = JSON.parse(line) as Record<string, unknown>;
      const level = typeof fields.level === 'string' ? fields.level : String(fields.level);
      const msg = typeof fields.msg === 'string' ? fields.msg : '';
      const logged = { at: Date.now(), instance: this.index, level, msg, fields };
      this.logs.push(logged);
      if (/^(uncaught exception|unhandled promise rejection): the process stops/.test(msg) && !this.fatalSeen) {
        this.fatalSeen = true;
        this.onFatal?.(logged);
      }
    } catch {
      // not a log line
    }
  }
}
